#include "harness/isolation/worker.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/wire.h"
#include "oracle/oracle.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

using namespace worker_protocol;  // NOLINT: the protocol's names, in the worker's two files

// The largest reply a case request may get: its output (known from the oracle's shape
// inference, which reads no data, when the case is valid) with the list of elements the
// backend left unwritten (8 bytes each, wire.cc WriteOutcome), or its input, whichever is
// larger, plus room for the outcome's message and shape. A worker can write anything on its pipe
// (the plugin runs in it), so the length in a reply's header is checked against this before
// anything is allocated: a forged 16 GiB header is a harness_error, not a bad_alloc.
uint64_t MaxCaseReply(const OpCase& c) {
  constexpr uint64_t kSlack = uint64_t{1} << 20;
  uint64_t bytes = c.data.bytes.size();
  absl::StatusOr<Validation> v = Validate(c);
  if (v.ok()) {  // output_shape is set when the case is valid
    absl::StatusOr<int64_t> n = NumElements(v->output_shape);
    if (n.ok() && *n >= 0 && static_cast<uint64_t>(*n) <= (kMaxTensorBytes * uint64_t{8})) {
      const uint64_t out = (static_cast<uint64_t>(*n) * BitWidth(v->output_type) + 7) / 8;
      const uint64_t unwritten = static_cast<uint64_t>(*n) * 8;
      bytes = std::max(bytes, std::min<uint64_t>(out, kMaxTensorBytes) + unwritten);
    }
  }
  return bytes + kSlack;
}
// Capabilities and shape answers carry no tensor.
constexpr uint64_t kMaxSmallReply = uint64_t{16} << 20;

// An out-of-memory answer of the worker (a std::bad_alloc it caught) names the limit in force.
void NameMemoryLimit(const EffectiveMemoryLimit& limit, RunOutcome::Kind kind,
                     std::string* message) {
  if (kind == RunOutcome::Kind::kOutOfMemory && limit.bytes > 0) {
    absl::StrAppend(message, ", at the worker's address-space limit of ", limit.Describe());
  }
}

// A shape question's answer when the exchange itself failed (the worker crashed, hung, ran out
// of memory or its reply was refused): that failure's kind and message.
ShapeOutcome ShapeFailure(RunOutcome o) {
  ShapeOutcome result;
  result.kind = o.kind;
  result.message = std::move(o.message);
  result.output_text = std::move(o.output_text);
  return result;
}

// Writes one batch item's request (its kind and body) into w; returns the largest reply it
// may get.
uint64_t EncodeItem(const BatchItem& item, wire::Writer& w) {
  if (item.kind == BatchItem::Kind::kRun) {
    w.U8(kRun);
    wire::WriteCase(w, *item.c);
    return MaxCaseReply(*item.c);
  }
  w.U8(item.kind == BatchItem::Kind::kInferStatic ? kInferStatic : kInferPartial);
  wire::WritePartialCase(w, *item.pc);
  return kMaxSmallReply;
}

BatchAnswer AnswerOf(const BatchItem& item, RunOutcome o) {
  BatchAnswer a;
  if (item.kind == BatchItem::Kind::kRun) {
    a.run = std::move(o);
  } else {
    a.shape = ShapeFailure(std::move(o));
  }
  return a;
}

}  // namespace

IsolatedBackend::IsolatedBackend(std::string name, BackendFactory factory, IsolationOptions options)
    : name_(std::move(name)), factory_(std::move(factory)), options_(options) {
  // A write to a worker that just died must be an error we can handle, not a signal that
  // kills the harness.
  signal(SIGPIPE, SIG_IGN);
  InstallProcessTreeGuards();
}

IsolatedBackend::~IsolatedBackend() { StopWorker(); }

RunOutcome IsolatedBackend::Exchange(wire::Writer& request, std::string* reply,
                                     uint64_t max_reply) {
  // Bytes out of sequence are blamed on the request only when they recur: the first time, the
  // request goes once more to a fresh worker (their writer may be a thread of an earlier call).
  std::string stray;
  for (int attempt = 0;; ++attempt) {
    RunOutcome started = StartForRequest(attempt);
    if (started.kind == RunOutcome::Kind::kRejected) continue;  // one more start
    if (started.kind != RunOutcome::Kind::kOutput) return started;
    const double deadline = Now() + options_.timeout_seconds;
    cap_.RequestStarts();
    ticks_ = 0;
    const uint64_t seq = next_seq_++;
    request.SetI64(1, static_cast<int64_t>(seq));
    Wait w = channel_.Send(request.data(), deadline, [&] { return Watch(true); });
    const bool sent = w == Wait::kOk;
    ReplyHeader h;
    if (sent) {
      w = channel_.Receive(
          {token_, seq, StepBit(kAnswer)}, max_reply, deadline, [&] { return Watch(true); }, &h,
          reply);
    }
    if (w == Wait::kOk && cap_.RequestOverCap()) w = Wait::kTooManyProcesses;
    if (w == Wait::kOk) {
      last_output_ = channel_.TakeOutput().Text();
      if (!stray.empty()) NoteStray(stray);
      return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
    }
    // A worker that failed before it took the request failed between requests: not this
    // one's. Once, the request goes to a fresh worker.
    if (attempt == 0 && NotTaken(w, sent)) {
      Replace(w);
      continue;
    }
    if (w == Wait::kOutOfSequence && stray.empty() && !replaying_stray_) {
      stray = Failure(w, h, max_reply, false).message;  // the worker is stopped
      continue;
    }
    RunOutcome failed = Failure(w, h, max_reply, channel_.Unread() > 0);
    if (!stray.empty() && w != Wait::kOutOfSequence) NoteStray(stray);
    return failed;
  }
}

Capabilities IsolatedBackend::GetCapabilities() const {
  if (caps_cached_) return caps_;
  auto* self = const_cast<IsolatedBackend*>(this);
  wire::Writer w;
  w.U8(kCaps);
  w.I64(0);  // its number, set when sent
  std::string reply;
  RunOutcome o = self->Exchange(w, &reply, kMaxSmallReply);
  caps_cached_ = true;
  if (o.kind != RunOutcome::Kind::kOutput) {
    startup_error_ = absl::StrCat("capabilities: ", o.message);
    return caps_;
  }
  wire::Reader r(reply);
  uint8_t status = 0;
  if (!r.U8(&status)) {
    startup_error_ = "capabilities: empty reply";
  } else if (status == kReplyStartupError) {
    r.Str(&startup_error_);
  } else if (!wire::ReadCapabilities(r, &caps_)) {
    startup_error_ = "capabilities: malformed reply";
  }
  return caps_;
}

RunOutcome IsolatedBackend::CaseRequest(const OpCase& c) {
  wire::Writer w;
  w.U8(kRun);
  w.I64(0);
  wire::WriteCase(w, c);
  current_request_ = absl::StrCat("case ", c.id.empty() ? "(no id)" : c.id);
  RunOutcome o = Exchange(w, &reply_, MaxCaseReply(c));
  last_answered_ = current_request_;
  if (o.kind != RunOutcome::Kind::kOutput) return o;
  o = DecodeCaseReply(reply_);
  o.output_text = std::move(last_output_);
  return o;
}

RunOutcome IsolatedBackend::DecodeCaseReply(absl::string_view reply) const {
  wire::Reader r(reply);
  uint8_t status = 0;
  RunOutcome result;
  if (!r.U8(&status)) return RunOutcome::Of(RunOutcome::Kind::kHarnessError, "worker: empty reply");
  if (status == kReplyStartupError) {
    std::string msg;
    r.Str(&msg);
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError,
                          absl::StrCat("backend did not start: ", msg));
  }
  if (status != kReplyOk || !wire::ReadOutcome(r, &result)) {
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError, "worker: malformed reply");
  }
  NameMemoryLimit(limit_, result.kind, &result.message);
  return result;
}

RunOutcome IsolatedBackend::Run(const OpCase& c) { return CaseRequest(c); }

ShapeOutcome IsolatedBackend::ShapeRequest(uint8_t request, const PartialCase& c) {
  wire::Writer w;
  w.U8(request);
  w.I64(0);
  wire::WritePartialCase(w, c);
  current_request_ = "a shape question";
  RunOutcome o = Exchange(w, &reply_, kMaxSmallReply);
  last_answered_ = current_request_;
  if (o.kind != RunOutcome::Kind::kOutput) return ShapeFailure(std::move(o));
  ShapeOutcome s = DecodeShapeReply(reply_);
  s.output_text = std::move(last_output_);
  return s;
}

ShapeOutcome IsolatedBackend::DecodeShapeReply(absl::string_view reply) const {
  ShapeOutcome result;
  wire::Reader r(reply);
  uint8_t status = 0;
  result.kind = RunOutcome::Kind::kHarnessError;
  if (!r.U8(&status)) {
    result.message = "worker: empty reply";
  } else if (status == kReplyStartupError) {
    std::string msg;
    r.Str(&msg);
    result.message = absl::StrCat("backend did not start: ", msg);
  } else if (status != kReplyOk || !wire::ReadShapeOutcome(r, &result)) {
    result.kind = RunOutcome::Kind::kHarnessError;
    result.message = "worker: malformed reply";
  }
  NameMemoryLimit(limit_, result.kind, &result.message);
  return result;
}

namespace {

// A batch item as the messages name it: "case <id>" or "a shape question".
std::string ItemName(const BatchItem& item) {
  if (item.kind != BatchItem::Kind::kRun) return "a shape question";
  return absl::StrCat("case ", item.c->id.empty() ? "(no id)" : item.c->id);
}

}  // namespace

size_t IsolatedBackend::EncodeBatch(absl::Span<const BatchItem> items) {
  // As many items as the limits allow: U8 kBatch, the first item's number, I64 count, then each
  // request as a blob.
  batch_.Clear();
  batch_.U8(kBatch);
  batch_.I64(0);
  batch_.I64(0);
  max_replies_.clear();
  size_t k = 0;
  for (; k < items.size() && k < kMaxBatchItems; ++k) {
    const size_t before = batch_.data().size();
    const size_t where = batch_.Begin();
    const uint64_t max_reply = EncodeItem(items[k], batch_);
    batch_.End(where);
    if (k > 0 && batch_.data().size() > kMaxBatchBytes) {
      batch_.Truncate(before);
      break;
    }
    max_replies_.push_back(max_reply);
  }
  batch_.SetI64(9, static_cast<int64_t>(k));
  return k;
}

BatchAnswer IsolatedBackend::ReplayStray(const BatchItem& item, const ReplyHeader& h,
                                         uint64_t max_reply) {
  // Blamed on the item only when it recurs (Exchange): asked once more, alone, of a fresh
  // worker.
  current_request_ = last_answered_;
  const std::string stray = Failure(Wait::kOutOfSequence, h, max_reply, false).message;
  replaying_stray_ = true;
  BatchAnswer again;
  if (item.kind == BatchItem::Kind::kRun) {
    again.run = CaseRequest(*item.c);
  } else {
    again.shape = ShapeRequest(
        item.kind == BatchItem::Kind::kInferStatic ? kInferStatic : kInferPartial, *item.pc);
    current_request_ = last_answered_;
  }
  replaying_stray_ = false;
  const std::string& message =
      item.kind == BatchItem::Kind::kRun ? again.run.message : again.shape.message;
  if (message.rfind("worker.reply.out_of_sequence", 0) != 0) NoteStray(stray);
  return again;
}

BatchAnswer IsolatedBackend::DecodedAnswer(const BatchItem& item) {
  const std::string output = channel_.TakeOutput().Text();
  BatchAnswer a;
  if (item.kind == BatchItem::Kind::kRun) {
    a.run = DecodeCaseReply(reply_);
    a.run.output_text = output;
  } else {
    a.shape = DecodeShapeReply(reply_);
    a.shape.output_text = output;
  }
  return a;
}

size_t IsolatedBackend::RunBatch(absl::Span<const BatchItem> items,
                                 absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                                 absl::FunctionRef<void()> meanwhile) {
  if (items.empty()) {
    meanwhile();
    return 0;
  }
  RunOutcome started = StartForRequest(0);
  if (started.kind == RunOutcome::Kind::kRejected) started = StartForRequest(1);
  if (started.kind != RunOutcome::Kind::kOutput) {
    meanwhile();
    done(0, AnswerOf(items[0], std::move(started)));
    return 1;
  }
  const size_t k = EncodeBatch(items);
  // Sends the batch (numbered from the worker's next number); its first reply's deadline.
  uint64_t first = 0;
  const auto send = [&](double deadline) {
    cap_.RequestStarts();
    ticks_ = 0;
    first = next_seq_;
    next_seq_ += k;
    batch_.SetI64(1, static_cast<int64_t>(first));
    return channel_.Send(batch_.data(), deadline, [&] { return Watch(true); });
  };
  Wait w = send(Now() + options_.timeout_seconds);
  bool sent = w == Wait::kOk;
  // The caller's work overlaps the worker's: the replies wait in the pipe meanwhile.
  meanwhile();
  // Each reply within the timeout of the one before (the first: of the caller's work above).
  double deadline = Now() + options_.timeout_seconds;
  bool resent = false;
  for (size_t i = 0; i < k; ++i) {
    const uint64_t max_reply = max_replies_[i];
    ReplyHeader h;
    if (w == Wait::kOk) {
      w = channel_.Receive(
          {token_, first + i, kBatchSteps}, max_reply, deadline, [&] { return Watch(true); }, &h,
          &reply_);
    }
    // A worker that failed before it took the batch failed between requests (Exchange): once,
    // the batch goes to a fresh worker.
    if (i == 0 && !resent && NotTaken(w, sent)) {
      Replace(w);
      resent = true;
      started = StartForRequest(1);
      if (started.kind != RunOutcome::Kind::kOutput) {
        done(0, AnswerOf(items[0], std::move(started)));
        return 1;
      }
      deadline = Now() + options_.timeout_seconds;
      w = send(deadline);
      sent = w == Wait::kOk;
      --i;
      continue;
    }
    // The process cap is counted where the worker stands idle: at a reply that paused the batch
    // and at the last. At a reply that goes on, the item left no new process below the worker,
    // and a count then would see the next items' processes too, and blame this one.
    const bool paused = w == Wait::kOk && h.step == kPaused;
    if (w == Wait::kOk && (paused || i + 1 == k) && cap_.RequestOverCap()) {
      w = Wait::kTooManyProcesses;
    }
    last_answered_ = ItemName(items[i]);
    if (w == Wait::kOutOfSequence) {
      done(i, ReplayStray(items[i], h, max_reply));
      return i + 1;
    }
    if (w != Wait::kOk) {
      done(i, AnswerOf(items[i], Failure(w, h, max_reply, channel_.Unread() > 0)));
      return i + 1;
    }
    done(i, DecodedAnswer(items[i]));
    if (paused) return i + 1;  // the worker awaits the next request: the rest go again
    // The caller's work on this answer is not the next case's time, nor its processes.
    deadline = Now() + options_.timeout_seconds;
    cap_.RequestStarts();
  }
  return k;
}

ShapeOutcome IsolatedBackend::InferStatic(const PartialCase& c) {
  return ShapeRequest(kInferStatic, c);
}

ShapeOutcome IsolatedBackend::InferPartial(const PartialCase& c) {
  return ShapeRequest(kInferPartial, c);
}

}  // namespace dmconf
