// The lines of one byte range of a text graph file, by the rule every node
// and every worker applies, so that the ranges of a file hold each line
// exactly once whatever the boundaries:
//
//   a line belongs to the range that holds the line break before it; the
//   first line of the data (at byte `data_start`, after any header) belongs
//   to the range that starts there.
//
// So a range [begin, end) skips everything up to its first line break (that
// line is an earlier range's), and its last line is the one whose line break
// lies at or after `end`: it is read to its end, past the range if need be.
// A range with no line break in it owns nothing and reads only [begin, end).
// CRLF needs no special case (the break is the '\n'; the '\r' is stripped),
// nor does a missing final newline (the last line ends at the end of the
// file). Nothing before `begin` is ever read, except on the error path, where
// the line number is found by counting the line breaks before the line.
//
// Lines are read in chunks through InputBytes (past the range's end in small
// reads, so that a node reads little more than its range); a long line grows
// the buffer up to `max_line` bytes, beyond which the line is an error (a
// binary file read as text must not eat the memory).
//
// The two boundary fragments, head (the bytes from `begin` to the first line
// break, another range's line) and tail (the bytes of the last line at or
// after `end`), are the same bytes in two adjacent ranges of one file: their
// hashes let nodes check that they read the same file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compute/graph/input_bytes.h"

namespace wg {

class LineSlice {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 22;  // reads within the range
  static constexpr size_t kTailRead = 256;                 // the first read past the range's end
  static constexpr size_t kDefaultMaxLine = size_t{1} << 26;

  // `first` says whether this range starts the data (owns the line at begin).
  // `lines_before`: lines of the file before `begin` when the caller knows it
  // (the header's lines), else unknown (kUnknown) and counted on the error path.
  static constexpr uint64_t kUnknown = UINT64_MAX;
  LineSlice(InputBytes& in, uint64_t begin, uint64_t end, bool first, uint64_t lines_before = kUnknown,
            size_t max_line = kDefaultMaxLine);
  // A header's lines: the whole file, read in small reads that double, so
  // that reading a header costs little more than its own bytes.
  static LineSlice header(InputBytes& in) {
    LineSlice s(in, 0, in.size(), true, 0);
    s.small_reads_ = true;
    return s;
  }

  // The next owned line, without its "\n" or "\r\n". False at the end.
  bool next(std::string_view& line);
  // The buffered bytes after the current line that are whole lines of this
  // range other than its last (each ends in a '\n' before the range's end),
  // without reading more: a parser may read lines from them in place and then
  // call took() with the bytes and lines it read. Empty before the first
  // next() and when none are buffered (next() reads on).
  std::string_view buffered_lines() const;
  void took(size_t bytes, uint64_t lines);

  // The current line's 1-based number in the file. Cheap for a range that
  // knows the lines before it; otherwise counts the line breaks before it
  // (reads the file up to here: for error messages only).
  uint64_t line_number();
  // The number of the line starting at `offset` (counts the line breaks
  // before it: error messages only).
  uint64_t line_number_at(uint64_t offset);
  uint64_t line_offset() const { return line_offset_; }  // the current line's first byte
  uint64_t next_offset() const { return buf_offset_ + pos_; }  // just after the current line
  uint64_t lines() const { return lines_; }              // lines returned so far

  bool has_head() const { return has_head_; }
  bool has_tail() const { return has_tail_; }
  uint64_t head_hash() const { return head_hash_; }
  uint64_t tail_hash() const { return tail_hash_; }  // valid once next() returned false

  // Rethrows a GraphError raised on the current line with its file line number.
  [[noreturn]] void rethrow_at_line(const std::string& what);

 private:
  bool fill();                      // more bytes after the current buffer end; false at EOF
  bool find_start();                // skips to the first owned line

  InputBytes& in_;
  const uint64_t begin_, end_, size_;
  const size_t max_line_;
  uint64_t lines_before_;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;        // unread bytes are buf_[pos_, len_)
  uint64_t buf_offset_ = 0;         // file offset of buf_[0]
  size_t tail_read_ = kTailRead;    // the next read past end_
  bool small_reads_ = false;        // every read is a tail read (header())
  uint64_t line_offset_ = 0;
  uint64_t lines_ = 0;
  bool started_ = false, done_ = false;
  bool has_head_ = false, has_tail_ = false;
  uint64_t head_hash_ = 0, tail_hash_ = 0;
};

// FNV-1a over bytes, continued from `h` (the boundary fragments' hash).
uint64_t fnv1a(std::string_view bytes, uint64_t h = 0xcbf29ce484222325ULL);

}  // namespace wg
