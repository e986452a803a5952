// What the harness and its worker say to each other (worker.h): the requests, and how every
// message of the worker is framed so that the harness can tell the worker's answer to what it
// asked from bytes that anything else in the worker wrote on the pipe.
//
// The backend (a plugin) runs inside the worker and can write anything on any descriptor the
// worker has, its reply pipe included. So a reply is taken only when its header proves it:
//   check  8 bytes  CheckOf(token, seq): the token is a random number the harness draws for
//                   each worker and the worker holds in memory; bytes that do not carry it
//                   are not the worker's
//   seq    8 bytes  the sequence number of the request this answers (each request, and each
//                   item of a batch, has the next number; the ready message has 0)
//   step   1 byte   kReady (the first message), kAnswer (a single request's reply), or in a
//                   batch kGoesOn / kPaused (the worker stopped the batch after this item)
//   length 8 bytes  of the payload that follows
// The harness checks them in that order, before it trusts the length: anything else (another
// check, another number, a step it did not ask for) is worker.reply.out_of_sequence, and the
// worker is replaced. All integers are little-endian.
//
// Requests: 8 bytes of length, then the payload: the request's kind (Request), its sequence
// number, then its body (wire.h). A batch (kBatch) carries the first item's number, the count,
// and each item as a length-prefixed blob of its kind and body; item i is number first + i.
#ifndef DMCONF_HARNESS_ISOLATION_WORKER_PROTOCOL_H_
#define DMCONF_HARNESS_ISOLATION_WORKER_PROTOCOL_H_

#include <cstddef>
#include <cstdint>

namespace dmconf::worker_protocol {

enum Request : uint8_t { kCaps = 1, kRun = 2, kInferStatic = 3, kInferPartial = 4, kBatch = 5 };

// The first byte of a reply's payload: the answer, or the backend's startup error.
enum Status : uint8_t { kReplyOk = 0, kReplyStartupError = 1 };

// A reply's step. In a batch the worker pauses after an item when, after it, a process is
// below the worker and a PID was allocated while it ran: the harness counts the process cap
// then, with the worker idle, and sends the rest again.
enum Step : uint8_t { kGoesOn = 0, kPaused = 1, kReady = 2, kAnswer = 3 };

inline constexpr size_t kReplyHeaderBytes = 25;

// Bit masks of the steps a wait accepts.
inline constexpr uint32_t StepBit(Step s) { return uint32_t{1} << s; }
inline constexpr uint32_t kBatchSteps = StepBit(kGoesOn) | StepBit(kPaused);

// The check of message `seq` for a worker's token: a 64-bit mix (SplitMix64's finaliser) of
// both, so that no check tells another's.
inline uint64_t CheckOf(uint64_t token, uint64_t seq) {
  uint64_t z = token ^ (seq * 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The largest message either side accepts at all (a single reply is bounded more tightly by
// what its request can need: worker.cc MaxCaseReply).
inline constexpr uint64_t kMaxMessage = uint64_t{1} << 34;

}  // namespace dmconf::worker_protocol

#endif  // DMCONF_HARNESS_ISOLATION_WORKER_PROTOCOL_H_
