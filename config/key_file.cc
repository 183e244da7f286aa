#include "config/key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string.h>

namespace wg {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string shown_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", u);
  return buf;
}

std::string expected() {
  return std::string("expected 64 hex digits (32 bytes; make a key with: ") + kMakeKeyCommand + ")";
}

}  // namespace

MasterKey parse_hex_key(std::string_view text, const std::string& what) {
  size_t begin = 0, end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  const std::string_view digits = text.substr(begin, end - begin);
  for (size_t i = 0; i < digits.size(); ++i)
    if (hex_value(digits[i]) < 0)
      throw std::invalid_argument(what + ": character " + shown_char(digits[i]) + " at offset " +
                                  std::to_string(begin + i) + " is not a hex digit; " + expected());
  if (digits.size() != 2 * kMasterKeyBytes)
    throw std::invalid_argument(what + ": " + std::to_string(digits.size()) + " hex digits; " + expected());
  MasterKey k{};
  for (size_t i = 0; i < k.size(); ++i)
    k[i] = static_cast<uint8_t>(hex_value(digits[2 * i]) << 4 | hex_value(digits[2 * i + 1]));
  return k;
}

MasterKey read_key_file(const std::string& path) {
  const std::string what = "--key-file " + path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::invalid_argument(what + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::invalid_argument(what + ": not a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw std::invalid_argument(what + ": mode " + mode +
                                " lets group or others read or change the job's secret; make it private: chmod 600 " +
                                path);
  }
  // A key is 32 raw bytes or 64 hex digits and a newline: anything much
  // longer is not a key file.
  char buf[256];
  // The secret does not outlive this call on the stack.
  struct Wipe {
    char* p;
    size_t n;
    ~Wipe() { explicit_bzero(p, n); }
  } wipe{buf, sizeof buf};
  size_t n = 0;
  for (ssize_t r; n < sizeof buf && (r = ::read(fd, buf + n, sizeof buf - n)) != 0;) {
    if (r < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw std::invalid_argument(what + ": cannot read: " + std::strerror(err));
    }
    n += static_cast<size_t>(r);
  }
  ::close(fd);
  if (n == sizeof buf) throw std::invalid_argument(what + ": longer than a key file; " + expected() + " or 32 raw bytes");
  const std::string_view text(buf, n);
  if (n == 0) throw std::invalid_argument(what + ": empty; " + expected() + " or 32 raw bytes");
  size_t first_bad = n;
  for (size_t i = 0; i < n && first_bad == n; ++i)
    if (hex_value(buf[i]) < 0 && !is_space(buf[i])) first_bad = i;
  if (first_bad == n) return parse_hex_key(text, what);
  // Raw bytes. (32 bytes that are all hex digits are taken as hex above and
  // refused as too short: almost surely a 16-byte key written in hex.)
  if (n == kMasterKeyBytes) {
    MasterKey k{};
    std::memcpy(k.data(), buf, k.size());
    return k;
  }
  throw std::invalid_argument(what + ": holds " + std::to_string(n) + " bytes, neither 64 hex digits (character " +
                              shown_char(buf[first_bad]) + " at offset " + std::to_string(first_bad) +
                              " is not one) nor 32 raw bytes; " + expected());
}

}  // namespace wg
