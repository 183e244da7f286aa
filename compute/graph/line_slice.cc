#include "compute/graph/line_slice.h"

#include <algorithm>
#include <cstring>

#include "compute/graph/graph_reader.h"

namespace wg {

uint64_t fnv1a(std::string_view bytes, uint64_t h) {
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

LineSlice::LineSlice(InputBytes& in, uint64_t begin, uint64_t end, bool first, uint64_t lines_before,
                     size_t max_line)
    : in_(in),
      begin_(std::min(begin, in.size())),
      end_(std::min(std::max(begin, end), in.size())),
      size_(in.size()),
      max_line_(max_line),
      lines_before_(first && begin == 0 ? 0 : lines_before) {
  buf_offset_ = begin_;
  started_ = first;
  line_offset_ = begin_;
}

// Reads more bytes after buf_[len_), keeping buf_[pos_, len_). While the
// first line break is searched for, nothing at or past end_ is read; past
// end_, only what the last line needs, in reads that start small and double.
bool LineSlice::fill() {
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
    buf_offset_ += pos_;
    len_ -= pos_;
    pos_ = 0;
  }
  const uint64_t at = buf_offset_ + len_;
  const uint64_t limit = started_ ? size_ : end_;
  if (at >= limit) return false;
  if (buf_.size() - len_ < kTailRead) {
    if (len_ > max_line_)
      throw GraphError(in_.name(), 0,
                       "byte " + std::to_string(buf_offset_) + ": a line longer than " + std::to_string(max_line_) +
                           " bytes (is this a text graph file?)");
    buf_.resize(std::max<size_t>(buf_.size() * 2, std::min<uint64_t>(kChunkBytes, end_ - begin_ + kTailRead)));
  }
  uint64_t want = buf_.size() - len_;
  if (at < end_ && !small_reads_) {
    want = std::min(want, end_ - at);
  } else {
    want = std::min<uint64_t>(want, tail_read_);
    tail_read_ = std::min<size_t>(tail_read_ * 2, kChunkBytes);
  }
  want = std::min(want, limit - at);
  const size_t got = in_.read_at(at, buf_.data() + len_, static_cast<size_t>(want));
  len_ += got;
  return got > 0;
}

bool LineSlice::find_start() {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (;;) {
    const char* p = buf_.data() + pos_;
    const char* nl = len_ > pos_ ? static_cast<const char*>(std::memchr(p, '\n', len_ - pos_)) : nullptr;
    if (nl != nullptr) {
      const size_t n = static_cast<size_t>(nl - p) + 1;
      head_hash_ = fnv1a(std::string_view(p, n), h);
      has_head_ = true;
      pos_ += n;
      started_ = true;
      line_offset_ = buf_offset_ + pos_;
      return true;
    }
    h = fnv1a(std::string_view(p, len_ - pos_), h);
    pos_ = len_;
    if (!fill()) return false;  // no line break in [begin, end): this range owns no line
  }
}

bool LineSlice::next(std::string_view& line) {
  if (done_) return false;
  if (!started_ && !find_start()) {
    done_ = true;
    return false;
  }
  const uint64_t start = buf_offset_ + pos_;
  if (start >= size_) {
    done_ = true;
    return false;
  }
  size_t scanned = 0;  // bytes of this line already searched for '\n'
  bool has_break = false;
  for (;;) {
    const size_t avail = len_ - pos_;
    if (avail > scanned) {
      const char* p = buf_.data() + pos_;
      const char* nl = static_cast<const char*>(std::memchr(p + scanned, '\n', avail - scanned));
      if (nl != nullptr) {
        scanned = static_cast<size_t>(nl - p);
        has_break = true;
        break;
      }
    }
    scanned = avail;
    if (!fill()) break;  // the last line of the file, without a final line break
  }
  const char* p = buf_.data() + pos_;
  line = std::string_view(p, scanned);
  line_offset_ = start;
  ++lines_;
  pos_ += has_break ? scanned + 1 : scanned;
  const uint64_t break_at = start + scanned;  // the '\n' (or the end of the file)
  if (!has_break || break_at >= end_) {
    // The range's last line: what of it lies at or past end_ is the next
    // range's head, when a line break ends it.
    done_ = true;
    if (has_break) {
      const uint64_t from = std::max(start, end_);
      tail_hash_ = fnv1a(std::string_view(p + (from - start), static_cast<size_t>(break_at - from) + 1));
      has_tail_ = true;
    }
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

std::string_view LineSlice::buffered_lines() const {
  if (!started_ || done_ || lines_ == 0 || buf_offset_ + pos_ >= end_) return {};
  const size_t limit = static_cast<size_t>(std::min<uint64_t>(len_, end_ - buf_offset_));  // bytes before end_
  const char* p = buf_.data() + pos_;
  const auto* last = static_cast<const char*>(memrchr(p, '\n', limit - pos_));
  return last == nullptr ? std::string_view() : std::string_view(p, static_cast<size_t>(last - p) + 1);
}

void LineSlice::took(size_t bytes, uint64_t lines) {
  if (lines == 0) return;
  // The last line taken becomes the current line (line_number() counts from it).
  const char* p = buf_.data() + pos_;
  const auto* before = bytes < 2 ? nullptr : static_cast<const char*>(memrchr(p, '\n', bytes - 1));
  line_offset_ = buf_offset_ + pos_ + (before == nullptr ? 0 : static_cast<size_t>(before - p) + 1);
  pos_ += bytes;
  lines_ += lines;
}

uint64_t LineSlice::line_number() {
  if (lines_before_ != kUnknown) return lines_before_ + lines_;
  const uint64_t n = line_number_at(lines_ > 0 ? line_offset_ : begin_);
  if (lines_ > 0) lines_before_ = n - lines_;  // later lines of the range count from here
  return n;
}

uint64_t LineSlice::line_number_at(uint64_t offset) {
  uint64_t breaks = 0;
  std::vector<char> chunk(kChunkBytes);
  for (uint64_t at = 0; at < offset;) {
    const size_t got =
        in_.read_at(at, chunk.data(), static_cast<size_t>(std::min<uint64_t>(chunk.size(), offset - at)));
    if (got == 0) break;
    breaks += static_cast<uint64_t>(std::count(chunk.data(), chunk.data() + got, '\n'));
    at += got;
  }
  return breaks + 1;
}

void LineSlice::rethrow_at_line(const std::string& what) { throw GraphError(in_.name(), line_number(), what); }

}  // namespace wg
