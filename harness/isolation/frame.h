// The pipes between the harness and its worker, and every wait on them (worker_protocol.h says
// what the messages hold).
//
// The harness's side (WorkerChannel) never blocks: its ends of the pipes are non-blocking, and
// every wait, for room to write a request as for a reply, polls up to a deadline. While it
// waits it calls a watch every 20 ms (the worker's death, its stop, the process cap: the
// caller's), and it reads the worker's standard output and error, which go to a third pipe,
// so that a worker that writes a lot is never blocked by a full pipe and its output is kept,
// up to a cap, for the case it belongs to. A request is written while the worker reads it and
// says nothing: bytes on the reply pipe then are unsolicited. A reply's header is checked
// before its length is trusted.
//
// The worker's side is blocking: it reads one request, answers, and reads the next.
//
// Example (the harness):
//   WorkerChannel ch;
//   ch.Open(to_worker, from_worker, output);
//   Wait w = ch.Send(request, deadline, watch);
//   ReplyHeader h;
//   if (w == Wait::kOk) w = ch.Receive({token, seq, StepBit(kAnswer)}, max, deadline, watch,
//                                      &h, &payload);
#ifndef DMCONF_HARNESS_ISOLATION_FRAME_H_
#define DMCONF_HARNESS_ISOLATION_FRAME_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "harness/isolation/worker_protocol.h"

namespace dmconf {

// How a wait ended.
enum class Wait {
  kOk,
  kEnded,             // the worker's end of the pipe closed, or the watch saw it end
  kTimeout,           // the deadline passed
  kTooLong,           // a reply's length is more than its request's answer can hold
  kTooManyProcesses,  // the watch: the process cap
  kOutOfSequence,     // a reply's check, number or step is not what was asked for
  kUnsolicited,       // bytes on the reply pipe while no request was awaiting an answer
  kStopped,           // the watch: the worker was stopped (SIGSTOP and the like)
};

// The monotonic clock, in seconds.
double Now();

// What the worker wrote on its standard output and error while one request was answered: the
// first kOutputCap bytes, and how many more were read and dropped.
struct CapturedOutput {
  std::string text;
  uint64_t cut = 0;
  bool empty() const { return text.empty() && cut == 0; }
  // As an outcome carries it (RunOutcome::output_text): the text, then a line saying how many
  // bytes were cut, if any.
  std::string Text() const;
};
inline constexpr size_t kOutputCap = size_t{64} << 10;

// A reply's header, as read.
struct ReplyHeader {
  uint64_t check = 0;
  uint64_t seq = 0;
  uint8_t step = 0;
  uint64_t length = 0;
};

// The reply a wait expects: the worker's token, the request's number, the steps allowed.
struct Expected {
  uint64_t token = 0;
  uint64_t seq = 0;
  uint32_t steps = 0;  // worker_protocol::StepBit(...) | ...
};

class WorkerChannel {
 public:
  // Called about every 20 ms of a wait; anything but kOk ends the wait with that code.
  using Watch = absl::FunctionRef<Wait()>;

  WorkerChannel() = default;
  ~WorkerChannel() { Close(); }
  WorkerChannel(const WorkerChannel&) = delete;
  WorkerChannel& operator=(const WorkerChannel&) = delete;

  // Takes the harness's ends: the request pipe's write end, the reply pipe's read end, the
  // read end of the worker's output pipe (-1: none). Makes them non-blocking.
  void Open(int to_worker, int from_worker, int output);
  void Close();

  // Writes one request: its length, then the payload. kUnsolicited when the worker wrote
  // anything before or meanwhile (it reads a whole request before it answers).
  Wait Send(absl::string_view payload, double deadline, Watch watch);
  // Reads the next reply. Its header must carry `expected`'s check and number and one of its
  // steps (else kOutOfSequence, with *header as read), and a length of at most max_payload
  // (else kTooLong, header->length the claimed length), before the payload is read.
  Wait Receive(const Expected& expected, uint64_t max_payload, double deadline, Watch watch,
               ReplyHeader* header, std::string* payload);
  // Whether bytes wait on the reply pipe now (read into the buffer without waiting), or it
  // closed: with no request awaiting an answer, they are unsolicited.
  bool HasUnsolicited();
  // The worker's output read since the last call (read now too, without waiting).
  CapturedOutput TakeOutput();
  // Bytes of requests still in the request pipe, not read by the worker; -1 if unknown.
  long Unread() const;

 private:
  // Waits until `fd` is ready for `events` (POLLIN / POLLOUT) or the deadline, reading the
  // output pipe meanwhile and calling the watch; also ends (kUnsolicited) when `guard_replies`
  // and the reply pipe becomes readable.
  Wait AwaitReady(int fd, short events, double deadline, Watch watch, bool guard_replies);
  Wait ReadExactly(char* p, size_t n, double deadline, Watch watch);
  void DrainOutput();

  int to_ = -1, from_ = -1, out_ = -1;
  std::vector<char> buffer_;  // read ahead from from_
  size_t begin_ = 0, end_ = 0;
  CapturedOutput output_;
  double last_watch_ = 0;
};

// The worker's side: blocking.
bool WriteAll(int fd, const char* p, size_t n);
// One reply: the header (CheckOf(token, seq), seq, step, length), then the payload.
bool SendReply(int fd, uint64_t token, uint64_t seq, worker_protocol::Step step,
               absl::string_view payload);
// The next request's payload; false at end of file, on an error or past kMaxMessage.
bool ReceiveRequest(int fd, std::string* payload);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_FRAME_H_
