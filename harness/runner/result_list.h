// The results of a backend's run (BackendRun::results), in case order.
//
// A list holds every result as a CaseResult in memory (about 0.37 KiB each,
// docs/performance.md), unless it spools (ResultList::Spooling(), what `dmconf run` uses). A
// spooling list writes each *plain* result (IsPlainResult: passed, unspecified_ok or
// unsupported, not failing, with nothing else to keep) a Writer is given to an unnamed
// temporary file, and keeps of it one byte (its verdict); every other result (failing, known,
// skipped, shrunk, saved, with a diagnosis or an invocation) is held. The results read back are
// the results written, in case order, whichever way they were kept.
//
// - Reading: size(), Held(i) (nullptr: spooled), VerdictAt(i), ForEach (in order, the spooled
//   ones read back a block at a time), operator[] and iteration (a spooled result is read back
//   into storage of the reading thread or iterator: the reference holds until the next read).
// - Writing: push_back, resize and Set(i, r) hold the result; Mutable(i) holds a spooled one
//   first. A Writer (one per chunk of the lane: RunLanes) spools the plain results it is given,
//   at ascending indices within a range no other Writer writes, and holds the others; what it
//   could not write to the file (a full disk) it holds instead, so a run never loses a result
//   to its spool. Writers of distinct chunks may run in distinct threads.
//
// Example:
//   ResultList results = ResultList::Spooling();
//   results.resize(n);
//   { ResultList::Writer w(results); w.Put(0, RunCase(...)); }  // flushed when it ends
//   results.ForEach([](size_t i, const CaseResult& r) { ... });
#ifndef DMCONF_HARNESS_RUNNER_RESULT_LIST_H_
#define DMCONF_HARNESS_RUNNER_RESULT_LIST_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/isolation/wire.h"
#include "harness/runner/case_result.h"

namespace dmconf {

// Whether `r` is spooled by a spooling list's Writer: passed, unspecified_ok or unsupported
// (what no reader of failing or known cases looks for), not failing (unsupported can be, by
// --unsupported-fails), not known, with no mismatch, diagnosis, invocation, shrunk case,
// witness, replays, backend output, vector file or repro line (case_record_test.cc checks each).
bool IsPlainResult(const CaseResult& r);

namespace internal {
struct ResultSpool;
}  // namespace internal

class ResultList {
 public:
  ResultList() = default;
  // Every result of `all`, held (a report read back whole: LoadReport).
  ResultList(std::vector<CaseResult> all) : all_(std::move(all)) {}  // NOLINT: as the vector
  // A list that spools the plain results its Writers are given.
  static ResultList Spooling();

  bool spooling() const { return spool_ != nullptr; }
  size_t size() const { return spool_ == nullptr ? all_.size() : size_; }
  bool empty() const { return size() == 0; }

  // Result i held, or nullptr when it is spooled.
  const CaseResult* Held(size_t i) const;
  Verdict VerdictAt(size_t i) const;
  // Result i: held, or read back (into this thread's storage, valid until its next read).
  const CaseResult& operator[](size_t i) const;
  const CaseResult& back() const { return (*this)[size() - 1]; }
  // f(i, result i) for every i in [begin, end), in order.
  void ForEach(size_t begin, size_t end,
               const std::function<void(size_t, const CaseResult&)>& f) const;
  void ForEach(const std::function<void(size_t, const CaseResult&)>& f) const {
    ForEach(0, size(), f);
  }
  // f(i, result i) for every held result, in order: each result that is not a plain pass is
  // among them (every result, for a list that does not spool). What a reader of failing or
  // known cases walks.
  void ForEachHeld(const std::function<void(size_t, const CaseResult&)>& f) const;

  void reserve(size_t n);
  void resize(size_t n);
  void clear() { resize(0); }
  void push_back(CaseResult r);
  // Result i held from now on as `r`.
  void Set(size_t i, CaseResult r);
  // Result i, held (a spooled one read back and held first).
  CaseResult& Mutable(size_t i);

  // Spools the plain results given to it (Put, at ascending indices of a range no other Writer
  // writes), holds the rest; flushes when it ends. Nothing reads the list while Writers run.
  class Writer {
   public:
    explicit Writer(ResultList& list) : list_(list) {}
    ~Writer() { Flush(); }
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    void Put(size_t i, CaseResult r);
    void Flush();

   private:
    ResultList& list_;
    wire::Writer buffer_;  // encoded plain results (result_list.cc)
    size_t first_ = 0, last_ = 0, count_ = 0;
  };

  // Iteration in order (an input iterator: the reference holds until the iterator moves).
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = CaseResult;
    using difference_type = std::ptrdiff_t;
    using pointer = const CaseResult*;
    using reference = const CaseResult&;
    const_iterator() = default;
    const_iterator(const ResultList* list, size_t i);
    reference operator*() const;
    pointer operator->() const { return &**this; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

    struct Cursor;  // result_list.cc

   private:
    friend class ResultList;
    const ResultList* list_ = nullptr;
    size_t i_ = 0;
    mutable std::shared_ptr<Cursor> cursor_;  // reads the spooled results
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

 private:
  friend class Writer;
  static constexpr uint8_t kHeldBit = 0x80;
  static constexpr uint8_t kUnwritten = 0x7f;
  // What an index never written reads as (this thread's storage, as a spooled result's).
  static const CaseResult& Unwritten(size_t i);

  // Held mode: every result.
  std::vector<CaseResult> all_;
  // Spooling mode.
  std::shared_ptr<internal::ResultSpool> spool_;
  size_t size_ = 0;
  std::vector<uint8_t> state_;         // per result: its verdict, | kHeldBit when held
  std::map<size_t, CaseResult> held_;  // the held results of a spooling list
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_RESULT_LIST_H_
