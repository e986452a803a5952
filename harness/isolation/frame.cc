#include "harness/isolation/frame.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "harness/isolation/fork_gate.h"

namespace dmconf {
namespace {

using worker_protocol::kMaxMessage;
using worker_protocol::kReplyHeaderBytes;

constexpr size_t kReplyBufferBytes = size_t{1} << 16;
constexpr double kWatchSeconds = 0.02;

void PutU64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t GetU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

void SetNonBlocking(int fd) {
  if (fd < 0) return;
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

}  // namespace

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void WorkerChannel::Open(int to_worker, int from_worker, int output) {
  Close();
  to_ = to_worker;
  from_ = from_worker;
  out_ = output;
  for (int fd : {to_, from_, out_}) SetNonBlocking(fd);
  buffer_.resize(kReplyBufferBytes);
  begin_ = end_ = 0;
  output_ = CapturedOutput();
  last_watch_ = Now();
}

void WorkerChannel::Close() {
  for (int* fd : {&to_, &from_, &out_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  begin_ = end_ = 0;
}

void WorkerChannel::DrainOutput() {
  if (out_ < 0) return;
  char chunk[16384];
  for (;;) {
    const ssize_t k = read(out_, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return;  // EAGAIN: nothing more now
    if (k == 0) {       // every writer is gone
      close(out_);
      out_ = -1;
      return;
    }
    const size_t room = kOutputCap - std::min(kOutputCap, output_.text.size());
    const size_t keep = std::min(room, static_cast<size_t>(k));
    output_.text.append(chunk, keep);
    output_.cut += static_cast<uint64_t>(k) - keep;
  }
}

std::string CapturedOutput::Text() const {
  if (cut == 0) return text;
  return absl::StrCat(text, text.empty() || text.back() == '\n' ? "" : "\n", "[dmconf: ", cut,
                      " more bytes of the backend's output were cut]\n");
}

CapturedOutput WorkerChannel::TakeOutput() {
  DrainOutput();
  CapturedOutput out = std::move(output_);
  output_ = CapturedOutput();
  return out;
}

long WorkerChannel::Unread() const {
  int n = 0;
  if (to_ < 0 || ioctl(to_, FIONREAD, &n) != 0) return -1;
  return n;
}

bool WorkerChannel::HasUnsolicited() {
  if (begin_ < end_) return true;
  if (from_ < 0) return false;
  for (;;) {
    const ssize_t k = read(from_, buffer_.data(), buffer_.size());
    if (k < 0 && errno == EINTR) continue;
    if (k > 0) {
      begin_ = 0;
      end_ = static_cast<size_t>(k);
      return true;
    }
    // 0: the worker's end closed (it died: the next wait says so); EAGAIN: nothing.
    return false;
  }
}

Wait WorkerChannel::AwaitReady(int fd, short events, double deadline, Watch watch,
                               bool guard_replies) {
  for (;;) {
    const double now = Now();
    if (now - last_watch_ >= kWatchSeconds) {
      last_watch_ = now;
      const Wait w = watch();
      if (w != Wait::kOk) return w;
    }
    const double left = deadline - now;
    if (left <= 0) return Wait::kTimeout;
    pollfd fds[3] = {{fd, events, 0}, {out_, POLLIN, 0}, {from_, POLLIN, 0}};
    const int count = guard_replies && fd != from_ ? 3 : 2;
    const int wait_ms = static_cast<int>(std::min(left, kWatchSeconds) * 1000) + 1;
    const int r = [&] {
      const ForkGate::Pause pause;  // waiting: another lane may fork meanwhile
      return poll(fds, count, wait_ms);
    }();
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Wait::kEnded;
    if (fds[1].revents != 0) DrainOutput();
    if (count == 3 && fds[2].revents != 0) return Wait::kUnsolicited;
    if (fds[0].revents != 0) return Wait::kOk;
  }
}

Wait WorkerChannel::ReadExactly(char* p, size_t n, double deadline, Watch watch) {
  while (n > 0) {
    if (begin_ < end_) {
      const size_t k = std::min(n, end_ - begin_);
      std::memcpy(p, buffer_.data() + begin_, k);
      begin_ += k;
      p += k;
      n -= k;
      continue;
    }
    // Small reads go through the buffer, which then holds every reply written so far; a big
    // payload is read in place.
    const bool refill = n < buffer_.size();
    const ssize_t k = refill ? read(from_, buffer_.data(), buffer_.size()) : read(from_, p, n);
    if (k > 0 && refill) {
      begin_ = 0;
      end_ = static_cast<size_t>(k);
      continue;
    }
    if (k > 0) {
      p += k;
      n -= static_cast<size_t>(k);
      continue;
    }
    if (k == 0) return Wait::kEnded;
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return Wait::kEnded;
    const Wait w = AwaitReady(from_, POLLIN, deadline, watch, false);
    if (w != Wait::kOk) return w;
  }
  return Wait::kOk;
}

Wait WorkerChannel::Send(absl::string_view payload, double deadline, Watch watch) {
  if (HasUnsolicited()) return Wait::kUnsolicited;
  char header[8];
  PutU64(header, payload.size());
  const absl::string_view parts[2] = {absl::string_view(header, 8), payload};
  for (absl::string_view part : parts) {
    while (!part.empty()) {
      const ssize_t k = write(to_, part.data(), part.size());
      if (k > 0) {
        part.remove_prefix(static_cast<size_t>(k));
        continue;
      }
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && errno != EAGAIN) return Wait::kEnded;  // EPIPE: the worker is gone
      const Wait w = AwaitReady(to_, POLLOUT, deadline, watch, true);
      if (w == Wait::kUnsolicited && !HasUnsolicited()) return Wait::kEnded;  // it closed
      if (w != Wait::kOk) return w;
    }
  }
  return Wait::kOk;
}

Wait WorkerChannel::Receive(const Expected& expected, uint64_t max_payload, double deadline,
                            Watch watch, ReplyHeader* header, std::string* payload) {
  char raw[kReplyHeaderBytes];
  // The check first, alone: bytes that are not the worker's are refused before the rest of a
  // header is awaited (a forged frame shorter than a header must not look like a hang).
  Wait w = ReadExactly(raw, 8, deadline, watch);
  if (w != Wait::kOk) return w;
  header->check = GetU64(raw);
  if (header->check != worker_protocol::CheckOf(expected.token, expected.seq)) {
    return Wait::kOutOfSequence;
  }
  w = ReadExactly(raw + 8, kReplyHeaderBytes - 8, deadline, watch);
  if (w != Wait::kOk) return w;
  header->seq = GetU64(raw + 8);
  header->step = static_cast<uint8_t>(raw[16]);
  header->length = GetU64(raw + 17);
  if (header->seq != expected.seq || header->step >= 32 ||
      (expected.steps & (uint32_t{1} << header->step)) == 0) {
    return Wait::kOutOfSequence;
  }
  if (header->length > std::min(max_payload, kMaxMessage)) return Wait::kTooLong;
  payload->assign(header->length, '\0');
  w = ReadExactly(payload->data(), header->length, deadline, watch);
  if (w == Wait::kOk) DrainOutput();  // what the worker wrote before it answered is this reply's
  return w;
}

bool WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

bool SendReply(int fd, uint64_t token, uint64_t seq, worker_protocol::Step step,
               absl::string_view payload) {
  char header[kReplyHeaderBytes];
  PutU64(header, worker_protocol::CheckOf(token, seq));
  PutU64(header + 8, seq);
  header[16] = static_cast<char>(step);
  PutU64(header + 17, payload.size());
  // Header and payload in one write: up to PIPE_BUF bytes it is atomic, so a thread of the
  // backend that writes on the reply pipe meanwhile cannot land between them.
  iovec iov[2] = {{header, sizeof header}, {const_cast<char*>(payload.data()), payload.size()}};
  ssize_t k;
  do {
    k = writev(fd, iov, 2);
  } while (k < 0 && errno == EINTR);
  if (k < 0) return false;
  const size_t sent = static_cast<size_t>(k);
  if (sent < sizeof header) {  // the pipe took part of the header only
    return WriteAll(fd, header + sent, sizeof header - sent) &&
           WriteAll(fd, payload.data(), payload.size());
  }
  return WriteAll(fd, payload.data() + (sent - sizeof header),
                  payload.size() - (sent - sizeof header));
}

namespace {

bool ReadBlocking(int fd, char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

}  // namespace

bool ReceiveRequest(int fd, std::string* payload) {
  char header[8];
  if (!ReadBlocking(fd, header, 8)) return false;
  const uint64_t n = GetU64(header);
  if (n > kMaxMessage) return false;
  payload->assign(n, '\0');
  return ReadBlocking(fd, payload->data(), n);
}

}  // namespace dmconf
