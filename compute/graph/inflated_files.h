// The decompressed bytes of the compressed graph files this process opened,
// one copy per file: a node opens its --graph many times before and while
// loading (the ids sample, the hello's identity, the memory check, the header
// and every worker's byte range), and each open would otherwise decompress
// the whole file again. The node lets them go once its share is loaded
// (release_inflated_files); a later open (--verify's oracle) decompresses
// the file again.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <string>

#include "compute/graph/compressed_input.h"

namespace wg {

// The file's first bytes, unless its name says binary records
// (sniffs_compression); kNone when it is not compressed. Throws GraphError
// for bzip2 and xz.
Compression file_compression(const std::string& path, int fd);

// The decompressed bytes of the open file `fd` (named `path`, described by
// `st`), decompressed by the first caller for this file as it is now (device,
// inode, size, modification time) and shared with the later ones. Thread-safe.
// Throws GraphError for a truncated or corrupt stream.
std::shared_ptr<const InflatedBytes> inflated_file(const std::string& path, int fd, const struct stat& st,
                                                   Compression c);

// Forgets every file's decompressed bytes (the memory goes when the last
// reader holding them closes).
void release_inflated_files();

// "input: g.txt.gz: gzip, 397,258 bytes decompressed to 1,011,180 in 0.012 s,
// held in memory until loaded", one line per file decompressed since the last
// release; empty when none was.
std::string inflated_files_summary();

}  // namespace wg
