#include "harness/runner/result_list.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/isolation/wire.h"

namespace dmconf {

bool IsPlainResult(const CaseResult& r) {
  const bool plain_verdict = r.verdict == Verdict::kPass || r.verdict == Verdict::kUnspecifiedOk ||
                             r.verdict == Verdict::kUnsupported;
  return plain_verdict && !r.failure && !HasFailureParts(r) && r.vector_file.empty() &&
         r.repro.empty();
}

namespace internal {

// The spool file and where each Writer's blocks are in it. A block holds the plain results of
// consecutive writes of one Writer: indices ascending, each after the one before.
struct ResultSpool {
  struct Block {
    size_t first = 0, last = 0;  // the first and last index it holds
    uint64_t offset = 0, bytes = 0;
  };
  ~ResultSpool() {
    if (fd >= 0) close(fd);
  }
  int fd = -1;
  std::mutex mutex;  // guards end, blocks, and the list's held_ and state_ while Writers run
  uint64_t end = 0;
  std::map<size_t, Block> blocks;  // by first index (never erased)
};

namespace {

// An unnamed file in $TMPDIR (else /tmp), gone when closed; -1 when none can be made.
int OpenSpoolFile() {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
#ifdef O_TMPFILE
  const int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
#endif
  std::string name = dir + "/dmconf-results-XXXXXX";
  const int named = mkostemp(name.data(), O_CLOEXEC);
  if (named < 0) return -1;
  unlink(name.c_str());
  return named;
}

// A plain result's record (wire.h's bounds-checked format: only this build reads it back): the
// index after the block's previous one (0 for its first), then its fields.
void Encode(wire::Writer& w, uint64_t step, const CaseResult& r) {
  w.I64(static_cast<int64_t>(step));
  w.Str(r.id);
  w.U8(static_cast<uint8_t>(r.op));
  w.U8(static_cast<uint8_t>(r.type));
  w.I64(r.rank);
  w.U8(static_cast<uint8_t>(r.expected));
  w.Str(r.rule);
  w.U8(static_cast<uint8_t>(r.verdict));
  w.Str(r.detail);
  w.U8(static_cast<uint8_t>(r.lane));
}

// The next record of `rd`; false when its bytes end or are not a record.
bool Decode(wire::Reader& rd, uint64_t* step, CaseResult* r) {
  int64_t s = 0, rank = 0;
  uint8_t op = 0, type = 0, expected = 0, verdict = 0, lane = 0;
  if (!rd.I64(&s) || s < 0 || !rd.Str(&r->id) || !rd.U8(&op) || !rd.U8(&type) || !rd.I64(&rank) ||
      !rd.U8(&expected) || !rd.Str(&r->rule) || !rd.U8(&verdict) || !rd.Str(&r->detail) ||
      !rd.U8(&lane)) {
    return false;
  }
  *step = static_cast<uint64_t>(s);
  r->op = static_cast<Op>(op);
  r->type = static_cast<ElementType>(type);
  r->rank = static_cast<int>(rank);
  r->expected = static_cast<ExpectedClass>(expected);
  r->verdict = static_cast<Verdict>(verdict);
  r->lane = static_cast<CaseLane>(lane);
  return true;
}

bool ReadBlock(int fd, const ResultSpool::Block& block, std::string* bytes) {
  bytes->resize(block.bytes);
  uint64_t done = 0;
  while (done < block.bytes) {
    const ssize_t n = pread(fd, bytes->data() + done, block.bytes - done,
                            static_cast<off_t>(block.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<uint64_t>(n);
  }
  return true;
}

bool WriteAt(int fd, const std::string& bytes, uint64_t offset) {
  uint64_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<uint64_t>(n);
  }
  return true;
}

CaseResult Unreadable(size_t i, const std::string& why) {
  CaseResult r;
  r.verdict = Verdict::kHarnessError;
  r.id = absl::StrCat("result ", i);
  r.detail = absl::StrCat("runner.result_spool: result ", i, " could not be read back (", why, ")");
  return r;
}

}  // namespace

}  // namespace internal

using internal::ResultSpool;

// Reads the spooled results of a list in ascending index order (a Writer writes one chunk of
// the lane, so no two blocks interleave). It reads only while its list lives.
struct ResultList::const_iterator::Cursor {
  explicit Cursor(const ResultSpool* s) : spool(s) {}
  const ResultSpool* spool;

  // Spooled result i (after any index asked before, else read from i's block again).
  const CaseResult& At(size_t i) {
    if (!started_ || (has_record_ && i < index_) || (!has_record_ && i < asked_)) Start(i);
    asked_ = i;
    while (!has_record_ || index_ < i) {
      if (!Next()) return Missing(i, "no record of it in the spool");
    }
    if (index_ == i) return record_;
    return Missing(i, "no record of it in the spool");  // the record read is kept for later
  }

 private:
  const CaseResult& Missing(size_t i, const std::string& why) {
    missing_ = internal::Unreadable(i, why);
    return missing_;
  }
  void Start(size_t i) {
    started_ = true;
    has_record_ = in_block_ = false;
    block_ = spool->blocks.upper_bound(i);
    if (block_ != spool->blocks.begin()) --block_;
  }
  // The next record, in this block or the ones after.
  bool Next() {
    for (;;) {
      if (!in_block_) {
        if (block_ == spool->blocks.end()) return false;
        if (!internal::ReadBlock(spool->fd, block_->second, &bytes_)) {
          ++block_;
          continue;
        }
        in_block_ = true;
        reader_.emplace(bytes_);
        index_ = block_->second.first;  // the block's first record steps 0 from it
      }
      uint64_t step = 0;
      CaseResult r;
      if (internal::Decode(*reader_, &step, &r)) {
        index_ += step;
        record_ = std::move(r);
        has_record_ = true;
        return true;
      }
      in_block_ = false;
      ++block_;
    }
  }

  std::map<size_t, ResultSpool::Block>::const_iterator block_;
  bool started_ = false, in_block_ = false, has_record_ = false;
  std::string bytes_;
  std::optional<wire::Reader> reader_;  // over bytes_
  // The last record's index, the last index asked.
  size_t index_ = 0, asked_ = 0;
  CaseResult record_, missing_;
};

const CaseResult& ResultList::Unwritten(size_t i) {
  thread_local CaseResult r;
  r = internal::Unreadable(i, "it was never written");
  return r;
}

ResultList ResultList::Spooling() {
  ResultList l;
  l.spool_ = std::make_shared<ResultSpool>();
  l.spool_->fd = internal::OpenSpoolFile();
  return l;
}

const CaseResult* ResultList::Held(size_t i) const {
  if (spool_ == nullptr) return &all_[i];
  if ((state_[i] & kHeldBit) == 0) return nullptr;
  return &held_.at(i);
}

Verdict ResultList::VerdictAt(size_t i) const {
  if (spool_ == nullptr) return all_[i].verdict;
  if (const CaseResult* h = Held(i)) return h->verdict;
  return state_[i] == kUnwritten ? Verdict::kHarnessError : static_cast<Verdict>(state_[i]);
}

const CaseResult& ResultList::operator[](size_t i) const {
  if (const CaseResult* h = Held(i)) return *h;
  if (state_[i] == kUnwritten) return Unwritten(i);
  // This thread's cursor, kept for the next read of the same list. It does not keep the spool
  // open once the list is gone (a weak reference: a spool made later at the same address is
  // another one, and `of` has expired by then). Checking `expired` and the address does not
  // take a reference on every read, as `lock` would.
  thread_local std::weak_ptr<ResultSpool> of;
  thread_local std::unique_ptr<const_iterator::Cursor> cursor;
  if (cursor == nullptr || of.expired() || cursor->spool != spool_.get()) {
    of = spool_;
    cursor = std::make_unique<const_iterator::Cursor>(spool_.get());
  }
  return cursor->At(i);
}

void ResultList::ForEach(size_t begin, size_t end,
                         const std::function<void(size_t, const CaseResult&)>& f) const {
  if (spool_ == nullptr) {
    for (size_t i = begin; i < end; ++i) f(i, all_[i]);
    return;
  }
  const_iterator::Cursor cursor(spool_.get());
  for (size_t i = begin; i < end; ++i) {
    const CaseResult* h = Held(i);
    f(i, h != nullptr ? *h : state_[i] == kUnwritten ? Unwritten(i) : cursor.At(i));
  }
}

void ResultList::ForEachHeld(const std::function<void(size_t, const CaseResult&)>& f) const {
  if (spool_ == nullptr) {
    for (size_t i = 0; i < all_.size(); ++i) f(i, all_[i]);
    return;
  }
  for (const auto& [i, r] : held_) f(i, r);
}

ResultList::const_iterator::const_iterator(const ResultList* list, size_t i) : list_(list), i_(i) {}

const CaseResult& ResultList::const_iterator::operator*() const {
  if (const CaseResult* h = list_->Held(i_)) return *h;
  if (list_->state_[i_] == kUnwritten) return list_->Unwritten(i_);
  if (cursor_ == nullptr) cursor_ = std::make_shared<Cursor>(list_->spool_.get());
  return cursor_->At(i_);
}

void ResultList::reserve(size_t n) {
  if (spool_ == nullptr) all_.reserve(n);
}

void ResultList::resize(size_t n) {
  if (spool_ == nullptr) {
    all_.resize(n);
    return;
  }
  if (n < size_) {
    // The results kept below the new end are held, and the spool starts again (a copy of the
    // list may still read the old one).
    for (size_t i = 0; i < n; ++i) {
      if ((state_[i] & kHeldBit) == 0 && state_[i] != kUnwritten) Mutable(i);
    }
    auto fresh = std::make_shared<ResultSpool>();
    fresh->fd = internal::OpenSpoolFile();
    spool_ = std::move(fresh);
  }
  // A result not written yet reads back as the harness error runner.result_spool.
  state_.resize(n, kUnwritten);
  while (!held_.empty() && held_.rbegin()->first >= n) held_.erase(std::prev(held_.end()));
  size_ = n;
}

void ResultList::push_back(CaseResult r) {
  if (spool_ == nullptr) {
    all_.push_back(std::move(r));
    return;
  }
  resize(size_ + 1);
  Set(size_ - 1, std::move(r));
}

void ResultList::Set(size_t i, CaseResult r) {
  if (spool_ == nullptr) {
    all_[i] = std::move(r);
    return;
  }
  held_[i] = std::move(r);
  state_[i] = kHeldBit;
}

CaseResult& ResultList::Mutable(size_t i) {
  if (spool_ == nullptr) return all_[i];
  if ((state_[i] & kHeldBit) == 0) {
    CaseResult copy = (*this)[i];
    Set(i, std::move(copy));
  }
  return held_.at(i);
}

void ResultList::Writer::Put(size_t i, CaseResult r) {
  ResultList& l = list_;
  if (l.spool_ == nullptr) {
    l.all_[i] = std::move(r);
    return;
  }
  if (l.spool_->fd < 0 || !IsPlainResult(r)) {
    const std::lock_guard<std::mutex> lock(l.spool_->mutex);
    l.Set(i, std::move(r));
    return;
  }
  if (count_ > 0 && i <= last_) Flush();  // not after the last one: a block of its own
  if (count_ == 0) first_ = last_ = i;
  internal::Encode(buffer_, i - last_, r);
  last_ = i;
  ++count_;
  // The verdict byte: written by this thread alone (each index has one Writer).
  l.state_[i] = static_cast<uint8_t>(r.verdict);
  constexpr size_t kBlockBytes = size_t{256} << 10;
  if (buffer_.data().size() >= kBlockBytes) Flush();
}

void ResultList::Writer::Flush() {
  if (count_ == 0) return;
  ResultList& l = list_;
  ResultSpool& spool = *l.spool_;
  const std::lock_guard<std::mutex> lock(spool.mutex);
  const std::string& bytes = buffer_.data();
  if (internal::WriteAt(spool.fd, bytes, spool.end)) {
    spool.blocks[first_] = ResultSpool::Block{first_, last_, spool.end, bytes.size()};
    spool.end += bytes.size();
  } else {
    // Not written (a full disk): the block's results are held instead.
    wire::Reader reader(bytes);
    size_t index = first_;  // the first record steps 0 from it
    uint64_t step = 0;
    CaseResult r;
    while (internal::Decode(reader, &step, &r)) {
      index += step;
      l.held_[index] = std::move(r);
      l.state_[index] = kHeldBit;
      r = CaseResult();
    }
  }
  buffer_.Clear();
  count_ = 0;
}

}  // namespace dmconf
