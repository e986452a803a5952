// The plugin C ABI boundary, in process: a fake plugin table (dmconf_plugin.h) whose every
// answer is chosen by the fuzzer (ABI version, capability table, create / destroy / run
// present or NULL, run()'s status code, message bytes, output element type, rank and dims,
// alloc_output calls and sizes), wrapped by the real adapter (WrapPluginTable,
// harness/plugin/plugin_backend.cc) and run on a small generated case. Checks:
//   - nothing crashes (the fake plugin keeps the ABI's memory rules: every pointer it hands
//     over is valid or NULL, and it writes only into buffers alloc_output gave it);
//   - a refused table gives an error "plugin.abi: ..." / "plugin.capabilities: ...";
//   - the case the adapter passes to run() describes the OpCase, and create()'s state reaches
//     run() and destroy();
//   - an outcome is kOutput only for a well-formed tensor (Tensor::Validate: dims
//     non-negative, byte size that of its shape and type) after run() returned DMCONF_OK;
//     DMCONF_REJECTED / DMCONF_UNSUPPORTED map to kRejected / kUnsupported, and anything else
//     is kInvalidAnswer "plugin.result: ..." (verdict invalid_answer: the plugin's failure).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_chooser.h"
#include "fuzz/perturb.h"
#include "harness/gen/generate.h"
#include "harness/plugin/dmconf_plugin.h"
#include "harness/plugin/plugin_backend.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// State of the current input, read by the fake plugin's functions.
struct Current {
  FuzzedDataProvider* fdp = nullptr;
  const OpCase* c = nullptr;
  const Tensor* want = nullptr;     // the oracle's output when the case is valid
  std::deque<std::string> strings;  // storage for every string handed to the adapter
  int state = 0;                    // create() returns &state
  bool created = false;
  int last_status = 0;
};
Current* g = nullptr;

const char* Keep(std::string s) {
  g->strings.push_back(std::move(s));
  return g->strings.back().c_str();
}

// NULL, "", a name from `names`, a list of names, or raw bytes.
const char* PickName(const std::vector<std::string>& names) {
  FuzzedDataProvider& f = *g->fdp;
  switch (f.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return nullptr;
    case 1:
      return Keep("");
    case 2:
      return Keep(f.ConsumeRandomLengthString(32));
    case 3: {
      std::string list;
      for (int i = f.ConsumeIntegralInRange<int>(1, 4); i > 0; --i) {
        absl::StrAppend(&list, list.empty() ? "" : ",",
                        names[f.ConsumeIntegralInRange<size_t>(0, names.size() - 1)]);
      }
      return Keep(list);
    }
    default:
      return Keep(names[f.ConsumeIntegralInRange<size_t>(0, names.size() - 1)]);
  }
}

std::vector<std::string> OpNames() {
  std::vector<std::string> v;
  for (Op op : AllOps()) v.emplace_back(OpName(op));
  return v;
}

std::vector<std::string> TypeNames() {
  std::vector<std::string> v;
  for (ElementType t : AllElementTypes()) v.emplace_back(ElementTypeName(t));
  return v;
}

[[noreturn]] void Fail(const char* what, absl::string_view detail = "") {
  std::fprintf(stderr, "dmconf fuzz failure (plugin ABI): %s %s\n", what,
               std::string(detail).c_str());
  FuzzFail(*g->c, what);
}

void* FakeCreate() {
  g->created = true;
  return &g->state;
}

void FakeDestroy(void* state) {
  if (g->created && state != &g->state) Fail("destroy() did not get create()'s state");
}

// Checks what the adapter passes to run() against the OpCase.
void CheckCase(const dmconf_case* pc) {
  const OpCase& c = *g->c;
  if (pc == nullptr || pc->op == nullptr || OpName(c.op) != pc->op) Fail("run() got a bad op");
  if (pc->data.rank != static_cast<int32_t>(c.data.shape.size()) ||
      pc->data.byte_size != c.data.bytes.size() || pc->data.element_type == nullptr ||
      ElementTypeName(c.data.type) != pc->data.element_type) {
    Fail("run() got a data tensor that is not the case's");
  }
  if (pc->num_int_inputs != static_cast<int32_t>(c.int_inputs.size())) {
    Fail("run() got the wrong number of integer inputs");
  }
}

int FakeRun(void* state, const dmconf_case* pc, dmconf_result* r) {
  FuzzedDataProvider& f = *g->fdp;
  if (g->created && state != &g->state) Fail("run() did not get create()'s state");
  CheckCase(pc);
  if (f.ConsumeBool()) {
    // Possibly the whole buffer, without a terminating NUL.
    const std::string m = f.ConsumeRandomLengthString(sizeof(r->message) + 8);
    std::memcpy(r->message, m.data(), std::min(m.size(), sizeof(r->message)));
  }
  static constexpr int kStatus[] = {DMCONF_OK, DMCONF_OK, DMCONF_OK, DMCONF_REJECTED,
                                    DMCONF_UNSUPPORTED};
  const int pick = f.ConsumeIntegralInRange<int>(0, 5);
  const int status = pick < 5 ? kStatus[pick] : f.ConsumeIntegral<int>();
  g->last_status = status;
  // The output the plugin claims: the oracle's (or the input's), then perturbed.
  const Tensor& like = g->want != nullptr ? *g->want : g->c->data;
  r->element_type =
      f.ConsumeBool() ? Keep(std::string(ElementTypeName(like.type))) : PickName(TypeNames());
  r->rank = f.ConsumeBool() ? static_cast<int32_t>(like.shape.size())
                            : f.ConsumeIntegralInRange<int32_t>(-2, DMCONF_PLUGIN_MAX_RANK + 2);
  for (int i = 0; i < DMCONF_PLUGIN_MAX_RANK; ++i) {
    const bool keep = static_cast<size_t>(i) < like.shape.size() && f.ConsumeBool();
    r->shape[i] =
        keep ? like.shape[static_cast<size_t>(i)] : f.ConsumeIntegralInRange<int64_t>(-2, 9);
    if (f.ConsumeIntegralInRange<int>(0, 15) == 0) r->shape[i] = f.ConsumeIntegral<int64_t>();
  }
  // 0..3 alloc_output calls; sizes small, or above the adapter's limit (a NULL answer).
  for (int n = f.ConsumeIntegralInRange<int>(0, 3); n > 0; --n) {
    uint64_t bytes = like.bytes.size();
    switch (f.ConsumeIntegralInRange<int>(0, 3)) {
      case 1:
        bytes += f.ConsumeIntegralInRange<uint64_t>(0, 6) - 3;  // may wrap: a huge size
        break;
      case 2:
        bytes = f.ConsumeIntegralInRange<uint64_t>(0, 4096);
        break;
      case 3:
        bytes = f.ConsumeIntegralInRange<uint64_t>(uint64_t{1} << 33, UINT64_MAX);
        break;
      default:
        break;
    }
    void* p = r->alloc_output(r, bytes);
    if (p != nullptr && bytes <= (uint64_t{1} << 20)) {
      std::memset(p, f.ConsumeIntegral<uint8_t>(), static_cast<size_t>(bytes));
    } else if (p != nullptr) {
      Fail("alloc_output gave a buffer above its limit");
    }
  }
  return status;
}

// The fake table, from the input.
dmconf_plugin MakeTable(std::vector<dmconf_op_support>* ops) {
  FuzzedDataProvider& f = *g->fdp;
  for (int n = f.ConsumeIntegralInRange<int>(0, 4); n > 0; --n) {
    dmconf_op_support s;
    s.op = f.ConsumeIntegralInRange<int>(0, 7) == 0 ? PickName(OpNames())
                                                    : Keep(std::string(OpName(g->c->op)));
    s.element_types = PickName(TypeNames());
    s.min_rank = f.ConsumeIntegralInRange<int32_t>(-1, 6);
    s.max_rank = f.ConsumeBool() ? DMCONF_PLUGIN_MAX_RANK : f.ConsumeIntegral<int32_t>();
    s.modes = PickName({"blocks_first", "depth_first", "valid", "same_upper", "same_lower"});
    ops->push_back(s);
  }
  dmconf_plugin p;
  std::memset(&p, 0, sizeof(p));
  p.abi_version = f.ConsumeIntegralInRange<int>(0, 15) == 0 ? f.ConsumeIntegral<uint32_t>()
                                                            : DMCONF_PLUGIN_ABI_VERSION;
  p.name = f.ConsumeBool() ? nullptr : Keep(f.ConsumeRandomLengthString(16));
  p.num_ops = static_cast<int32_t>(ops->size());
  p.ops = ops->empty() ? nullptr : ops->data();
  switch (f.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      p.num_ops = -1;
      break;
    case 1:
      p.num_ops = f.ConsumeIntegralInRange<int32_t>(1, 4);
      p.ops = nullptr;  // a count without a table
      break;
    default:
      break;
  }
  if (f.ConsumeBool()) p.create = FakeCreate;
  if (f.ConsumeBool()) p.destroy = FakeDestroy;
  p.run = f.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : FakeRun;
  return p;
}

void CheckOutcome(const RunOutcome& r) {
  using K = RunOutcome::Kind;
  switch (r.kind) {
    case K::kOutput: {
      if (g->last_status != DMCONF_OK) Fail("an output although run() did not return DMCONF_OK");
      if (!r.output) Fail("kOutput without an output");
      absl::Status s = r.output->Validate("output");
      if (!s.ok()) Fail("an accepted output is not a well-formed tensor:", s.message());
      return;
    }
    case K::kRejected:
      if (g->last_status != DMCONF_REJECTED) Fail("kRejected but run() did not reject");
      return;
    case K::kUnsupported:
      if (g->last_status != DMCONF_UNSUPPORTED) Fail("kUnsupported but run() did not say so");
      return;
    case K::kInvalidAnswer:
      if (!absl::StartsWith(r.message, "plugin.result: ")) {
        Fail("an invalid answer without the plugin.result rule id:", r.message);
      }
      return;
    default:
      Fail("the adapter returned an isolation-only outcome kind");
  }
}

}  // namespace
}  // namespace dmconf

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  GenerateOptions o;
  o.build.max_elements = 256;
  o.overflow_weight = 0;
  const GeneratedCase gc = GenerateCase(ch, o);
  absl::StatusOr<Expectation> e = Evaluate(gc.c, EvalOptions{int64_t{1} << 20});
  Current cur;
  cur.fdp = &fdp;
  cur.c = &gc.c;
  if (e.ok() && e->output) cur.want = &*e->output;
  g = &cur;
  std::vector<dmconf_op_support> ops;
  const dmconf_plugin table = MakeTable(&ops);
  absl::StatusOr<std::unique_ptr<Backend>> b = WrapPluginTable(&table, "fuzz-plugin");
  if (!b.ok()) {
    if (!absl::StartsWith(b.status().message(), "plugin.abi: ") &&
        !absl::StartsWith(b.status().message(), "plugin.capabilities: ") &&
        !absl::StartsWith(b.status().message(), "plugin.capabilities.")) {
      Fail("a refused table without a plugin rule id:", b.status().message());
    }
    g = nullptr;
    return 0;
  }
  (void)(*b)->Name();
  (void)(*b)->Supports(gc.c);
  for (int n = fdp.ConsumeIntegralInRange<int>(1, 3); n > 0; --n) CheckOutcome((*b)->Run(gc.c));
  b->reset();
  g = nullptr;
  return 0;
}
