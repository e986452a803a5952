#include "harness/plugin/plugin_backend.h"

#include <dlfcn.h>

#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "harness/plugin/dmconf_plugin.h"
#include "harness/plugin/sealed_copy.h"

namespace dmconf {
namespace {

// Largest output a plugin may allocate through alloc_output.
constexpr uint64_t kMaxOutputBytes = static_cast<uint64_t>(kMaxTensorBytes);

// The contents of a buffer alloc_output returns are unspecified (dmconf_plugin.h): dmconf
// fills it with a pattern that is no element's zero, so that a kernel that skips the padding
// zeros cannot pass, and for ops with padding runs the case again over the complementary
// pattern: an element that differs between the runs was never written.
constexpr uint8_t kFirstFill = 0xA5;
constexpr uint8_t kSecondFill = 0x5A;

// Guard bytes after every output buffer: a kernel that writes past the bytes it asked
// alloc_output for changes one of them (the check after each call names the first), instead of
// corrupting the harness's memory unseen. Byte i of the guard is GuardByte(i): never 0x00 or
// 0xFF for i < kGuardBytes, so that a stray zero or all-ones write is seen too.
constexpr size_t kGuardBytes = 64;
constexpr uint8_t GuardByte(size_t i) { return static_cast<uint8_t>(0x5C + 0x1D * i); }

struct OutputBuffer {
  std::vector<uint8_t> bytes;  // size + kGuardBytes bytes, the guard last
  size_t size = 0;             // the bytes asked for
  bool allocated = false;
  uint8_t fill = kFirstFill;
};

// The first guard byte a call changed, if any.
std::optional<size_t> ChangedGuardByte(const OutputBuffer& buf) {
  if (!buf.allocated) return std::nullopt;
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (buf.bytes[buf.size + i] != GuardByte(i)) return i;
  }
  return std::nullopt;
}

// Ops whose output has elements no input element maps to (padding zeros).
bool MayPad(Op op) { return op == Op::kSpaceToBatch || op == Op::kExtractImagePatches; }

void* AllocOutput(dmconf_result* self, uint64_t bytes) {
  auto* buf = static_cast<OutputBuffer*>(self->harness_private);
  if (bytes > kMaxOutputBytes) return nullptr;
  buf->size = static_cast<size_t>(bytes);
  buf->bytes.assign(buf->size + kGuardBytes, buf->fill);
  for (size_t i = 0; i < kGuardBytes; ++i) buf->bytes[buf->size + i] = GuardByte(i);
  buf->allocated = true;
  // Never null, even for 0 bytes (the guard is there), so that plugins can tell success from
  // failure.
  return buf->bytes.data();
}

dmconf_tensor View(const Tensor& t, const std::string& type_name) {
  dmconf_tensor v;
  v.element_type = type_name.c_str();
  v.rank = static_cast<int32_t>(t.shape.size());
  v.shape = t.shape.data();
  v.data = t.bytes.data();
  v.byte_size = t.bytes.size();
  return v;
}

// The attribute bundle (oracle/op_attributes.h) of an OpCase or a PartialCase into a
// dmconf_case or a dmconf_shape_case, which hold it under the same names; the pointers are
// into `a`, which must outlive the call. (The one writer for both C structs.)
template <typename CCase>
void AttributesToC(const OpAttributes& a, CCase& out) {
  out.has_block_size = a.block_size.has_value() ? 1 : 0;
  out.block_size = a.block_size.value_or(0);
  out.mode = a.mode.has_value() ? a.mode->c_str() : nullptr;
  out.num_sizes = static_cast<int32_t>(a.sizes.size());
  out.num_strides = static_cast<int32_t>(a.strides.size());
  out.num_rates = static_cast<int32_t>(a.rates.size());
  out.sizes = a.sizes.data();
  out.strides = a.strides.data();
  out.rates = a.rates.data();
  out.auto_pad = a.auto_pad.has_value() ? a.auto_pad->c_str() : nullptr;
}

// A partial shape as the C ABI passes it (dims live in `dims`).
struct ShapeView {
  int32_t rank = DMCONF_RANK_UNKNOWN;
  std::vector<dmconf_dim> dims;
};

ShapeView ViewShape(const PartialShape& p) {
  ShapeView v;
  if (!p.dims) return v;
  v.rank = static_cast<int32_t>(p.dims->size());
  for (const Dim& d : *p.dims) v.dims.push_back({d.lo, d.hi.value_or(DMCONF_UNBOUNDED)});
  return v;
}

// The plugin's answer, checked field by field: it is untrusted.
ShapeOutcome ReadShapeResult(int status, dmconf_shape_result& res, bool want_static) {
  ShapeOutcome o;
  res.message[sizeof(res.message) - 1] = '\0';
  o.message = res.message;
  if (status == DMCONF_REJECTED) {
    o.kind = ShapeOutcome::Kind::kRejected;
    return o;
  }
  if (status == DMCONF_UNSUPPORTED) {
    o.kind = ShapeOutcome::Kind::kUnsupported;
    return o;
  }
  o.kind = ShapeOutcome::Kind::kInvalidAnswer;
  if (status != DMCONF_OK) {
    o.message = absl::StrCat("plugin.result: ", want_static ? "infer_static" : "infer_partial",
                             "() returned ", status);
    return o;
  }
  if (res.element_type == nullptr) {
    o.message = "plugin.result: the answer's element type is not set";
    return o;
  }
  absl::StatusOr<ElementType> type = ParseElementType(res.element_type);
  if (!type.ok()) {
    o.message = absl::StrCat("plugin.result: ", type.status().message());
    return o;
  }
  o.type = *type;
  if (res.rank == DMCONF_RANK_UNKNOWN && !want_static) {
    o.shape = PartialShape::DynamicRank();
  } else if (res.rank < 0 || res.rank > DMCONF_PLUGIN_MAX_RANK) {
    o.message = absl::StrCat("plugin.result: the answer's rank ", res.rank, " is not ",
                             want_static ? "0.." : "-1 (unknown) or 0..", DMCONF_PLUGIN_MAX_RANK);
    return o;
  } else {
    o.shape.dims.emplace();
    for (int32_t i = 0; i < res.rank; ++i) {
      const dmconf_dim& d = res.shape[i];
      const bool bounded = d.hi != DMCONF_UNBOUNDED;
      if (d.lo < 0 || (bounded && d.hi < d.lo) || (want_static && d.hi != d.lo)) {
        o.message = absl::StrCat(
            "plugin.result: dim ", i, " of the answer is {", d.lo, ", ", d.hi, "}, not ",
            want_static ? "an exact dim (lo == hi >= 0)"
                        : "an interval 0 <= lo <= hi or {lo >= 0, DMCONF_UNBOUNDED}");
        return o;
      }
      o.shape.dims->push_back(bounded ? Dim::Range(d.lo, d.hi) : Dim::AtLeast(d.lo));
    }
  }
  o.kind = ShapeOutcome::Kind::kOutput;
  return o;
}

class PluginBackend : public Backend {
 public:
  // A dlopen'ed library stays loaded: a plugin may have registered atexit handlers or threads.
  PluginBackend(const dmconf_plugin* plugin, Capabilities caps)
      : plugin_(plugin), caps_(std::move(caps)) {
    if (plugin_->name != nullptr) {
      caps_.declared_name.assign(plugin_->name, strnlen(plugin_->name, 256));
    }
    if (plugin_->create != nullptr) state_ = plugin_->create();
  }
  ~PluginBackend() override {
    if (plugin_->destroy != nullptr) plugin_->destroy(state_);
  }

  std::string Name() const override { return plugin_->name != nullptr ? plugin_->name : "plugin"; }
  Capabilities GetCapabilities() const override { return caps_; }

  // Only read for a version-2 table: a version-1 table ends before these fields.
  ShapeOutcome InferStatic(const PartialCase& c) override {
    if (!caps_.infer_static) return Backend::InferStatic(c);
    return Infer(c, plugin_->infer_static, /*want_static=*/true);
  }
  ShapeOutcome InferPartial(const PartialCase& c) override {
    if (!caps_.infer_partial) return Backend::InferPartial(c);
    return Infer(c, plugin_->infer_partial, /*want_static=*/false);
  }

  RunOutcome Run(const OpCase& c) override {
    RunOutcome first = RunOnce(c, kFirstFill);
    if (first.kind != RunOutcome::Kind::kOutput || !MayPad(c.op)) return first;
    RunOutcome second = RunOnce(c, kSecondFill);
    if (second.kind != RunOutcome::Kind::kOutput || second.output->type != first.output->type ||
        second.output->shape != first.output->shape) {
      first.kind = RunOutcome::Kind::kInvalidAnswer;
      first.message =
          "plugin.result: the same case run twice gave a different outcome, type or shape "
          "(the output depends on something other than the case)";
      first.output.reset();
      return first;
    }
    const Tensor& a = *first.output;
    const Tensor& b = *second.output;
    if (a.bytes != b.bytes) {
      for (int64_t i = 0; i < a.NumElements(); ++i) {
        if (a.GetBits(i) != b.GetBits(i)) first.unwritten.push_back(i);
      }
    }
    return first;
  }

 private:
  RunOutcome RunOnce(const OpCase& c, uint8_t fill) {
    // Everything the dmconf_case points at lives in this frame until run() returns.
    const std::string op(OpName(c.op));
    const std::string data_type(ElementTypeName(c.data.type));
    std::vector<std::string> int_types;
    for (const Tensor& t : c.int_inputs) int_types.emplace_back(ElementTypeName(t.type));
    std::vector<dmconf_tensor> ints;
    for (size_t i = 0; i < c.int_inputs.size(); ++i)
      ints.push_back(View(c.int_inputs[i], int_types[i]));

    dmconf_case pc;
    std::memset(&pc, 0, sizeof(pc));
    pc.op = op.c_str();
    pc.id = c.id.c_str();
    pc.data = View(c.data, data_type);
    pc.num_int_inputs = static_cast<int32_t>(ints.size());
    pc.int_inputs = ints.data();
    AttributesToC(c, pc);

    OutputBuffer buf;
    buf.fill = fill;
    dmconf_result res;
    std::memset(&res, 0, sizeof(res));
    res.alloc_output = AllocOutput;
    res.harness_private = &buf;
    // A plugin with shape inference only (run NULL) is never asked (caps_.kernels false).
    static constexpr char kNoKernels[] = "the plugin has no kernels (run is NULL)";
    if (plugin_->run == nullptr) std::memcpy(res.message, kNoKernels, sizeof(kNoKernels));
    const int status =
        plugin_->run != nullptr ? plugin_->run(state_, &pc, &res) : DMCONF_UNSUPPORTED;
    res.message[sizeof(res.message) - 1] = '\0';

    RunOutcome o;
    o.message = res.message;
    // Whatever run() returned: a write past the buffer is the kernel's fault on any case.
    if (std::optional<size_t> k = ChangedGuardByte(buf)) {
      o.kind = RunOutcome::Kind::kInvalidAnswer;
      o.message =
          absl::StrCat("plugin.output.bounds: run() wrote past the end of its output buffer (byte ",
                       *k, " after the ", buf.size, " bytes it asked alloc_output for changed)");
      return o;
    }
    if (status == DMCONF_REJECTED) {
      o.kind = RunOutcome::Kind::kRejected;
      return o;
    }
    if (status == DMCONF_UNSUPPORTED) {
      o.kind = RunOutcome::Kind::kUnsupported;
      return o;
    }
    if (status != DMCONF_OK) {
      o.kind = RunOutcome::Kind::kInvalidAnswer;
      o.message = absl::StrCat("plugin.result: run() returned ", status);
      return o;
    }
    // The plugin's output is untrusted: check every field before building a Tensor.
    if (res.element_type == nullptr || !buf.allocated || res.rank < 0 ||
        res.rank > DMCONF_PLUGIN_MAX_RANK) {
      o.kind = RunOutcome::Kind::kInvalidAnswer;
      o.message = "plugin.result: output element type, rank or buffer not set";
      return o;
    }
    absl::StatusOr<ElementType> type = ParseElementType(res.element_type);
    if (!type.ok()) {
      o.kind = RunOutcome::Kind::kInvalidAnswer;
      o.message = absl::StrCat("plugin.result: ", type.status().message());
      return o;
    }
    Tensor t;
    t.type = *type;
    t.shape.assign(res.shape, res.shape + res.rank);
    buf.bytes.resize(buf.size);  // the guard off
    t.bytes = std::move(buf.bytes);
    // Dims non-negative, element count representable, byte size that of shape and type.
    if (absl::Status s = t.Validate("output"); !s.ok()) {
      o.kind = RunOutcome::Kind::kInvalidAnswer;
      o.message = absl::StrCat("plugin.result: ", s.message());
      return o;
    }
    o.kind = RunOutcome::Kind::kOutput;
    o.output = std::move(t);
    return o;
  }

  using InferFn = int (*)(void*, const dmconf_shape_case*, dmconf_shape_result*);
  ShapeOutcome Infer(const PartialCase& c, InferFn fn, bool want_static) {
    // Everything the dmconf_shape_case points at lives in this frame until fn returns.
    const std::string op(OpName(c.op));
    const std::string data_type(ElementTypeName(c.type));
    const ShapeView data = ViewShape(c.data);
    const bool block_op = c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace;
    std::array<std::string, 3> int_types;
    std::array<ShapeView, 3> int_shapes;
    std::vector<dmconf_int_input> ints;
    for (size_t k = 0; block_op && k < 3; ++k) {
      dmconf_int_input in;
      std::memset(&in, 0, sizeof(in));
      const std::optional<Tensor>& t = c.int_inputs[k];
      int_types[k] = std::string(ElementTypeName(t ? t->type : c.int_types[k]));
      in.element_type = int_types[k].c_str();
      if (t) {
        in.is_constant = 1;
        in.constant = View(*t, int_types[k]);
        in.rank = static_cast<int32_t>(t->shape.size());
        in.shape = nullptr;
      } else {
        int_shapes[k] = ViewShape(c.int_shapes[k]);
        in.rank = int_shapes[k].rank;
        in.shape = int_shapes[k].dims.data();
      }
      ints.push_back(in);
    }
    dmconf_shape_case sc;
    std::memset(&sc, 0, sizeof(sc));
    sc.op = op.c_str();
    const std::string id = ShapeCaseId(c);
    sc.id = id.c_str();
    sc.element_type = data_type.c_str();
    sc.rank = data.rank;
    sc.shape = data.dims.data();
    sc.num_int_inputs = static_cast<int32_t>(ints.size());
    sc.int_inputs = ints.data();
    AttributesToC(c, sc);
    dmconf_shape_result res;
    std::memset(&res, 0, sizeof(res));
    const int status = fn(state_, &sc, &res);
    return ReadShapeResult(status, res, want_static);
  }

  // PartialCase carries no id; the plugin sees the op and the data shape, for its logs.
  static std::string ShapeCaseId(const PartialCase& c) {
    return absl::StrCat(OpName(c.op), c.data.ToString());
  }

  const dmconf_plugin* plugin_;
  Capabilities caps_;
  void* state_ = nullptr;
};

constexpr int32_t kMaxDeclaredSlices = 4096;

absl::StatusOr<Capabilities> ReadCapabilities(const dmconf_plugin* p) {
  Capabilities caps;
  if (p->num_ops < 0 || (p->num_ops > 0 && p->ops == nullptr)) {
    return absl::InvalidArgumentError("plugin.capabilities: ops table missing");
  }
  // A table is read entry by entry from the plugin's memory: a count far above any real
  // table (5 ops x a few slices) is a lie, refused before the first entry past the end.
  if (p->num_ops > kMaxDeclaredSlices) {
    return absl::InvalidArgumentError(absl::StrCat("plugin.capabilities.count: num_ops is ",
                                                   p->num_ops, ", more than ", kMaxDeclaredSlices,
                                                   " declared slices"));
  }
  for (int32_t i = 0; i < p->num_ops; ++i) {
    const dmconf_op_support& s = p->ops[i];
    if (s.op == nullptr) return absl::InvalidArgumentError("plugin.capabilities: op name missing");
    absl::StatusOr<Op> op = ParseOp(s.op);
    if (!op.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("plugin.capabilities: ", op.status().message()));
    OpSupport o;
    o.op = *op;
    // docs/plugin-abi.md: a slice covers ranks min_rank..max_rank, 0 <= min_rank <= max_rank.
    if (s.min_rank < 0 || s.max_rank < s.min_rank) {
      return absl::InvalidArgumentError(absl::StrCat("plugin.capabilities.rank: ", s.op,
                                                     " declares ranks ", s.min_rank, "..",
                                                     s.max_rank, " (0 <= min_rank <= max_rank)"));
    }
    o.min_rank = s.min_rank;
    o.max_rank = s.max_rank;
    if (s.element_types == nullptr || s.element_types[0] == '\0') {
      for (ElementType t : AllElementTypes()) o.element_types.insert(t);
    } else {
      for (absl::string_view name : absl::StrSplit(s.element_types, ',', absl::SkipEmpty())) {
        absl::StatusOr<ElementType> t = ParseElementType(name);
        if (!t.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("plugin.capabilities: ", t.status().message()));
        }
        o.element_types.insert(*t);
      }
    }
    if (s.modes != nullptr) {
      for (absl::string_view m : absl::StrSplit(s.modes, ',', absl::SkipEmpty())) {
        o.modes.insert(std::string(m));
      }
    }
    caps.ops.push_back(std::move(o));
  }
  return caps;
}

// dlopen of `file`, the table asked for; `name` is the plugin in messages.
absl::StatusOr<std::unique_ptr<Backend>> LoadFile(const std::string& file,
                                                  const std::string& name) {
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    std::string why = err != nullptr ? err : name;
    // The loader names the file it opened; for a copy, that is not the user's name for it.
    if (file != name) {
      if (absl::StartsWith(why, file + ": ")) why = why.substr(file.size() + 2);
      why = absl::StrCat(name, ": ", why);
    }
    return absl::NotFoundError(absl::StrCat("plugin.load: ", why));
  }
  auto get = reinterpret_cast<dmconf_plugin_get_fn>(dlsym(handle, "dmconf_plugin_get"));
  if (get == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("plugin.symbol: ", name, " does not export dmconf_plugin_get"));
  }
  // Version 2 first; a plugin built against version 1 answers NULL and is asked for 1.
  const dmconf_plugin* table = get(DMCONF_PLUGIN_ABI_VERSION);
  if (table == nullptr) table = get(1u);
  return WrapPluginTable(table, name);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Backend>> LoadPluginBackend(const std::string& path) {
  // A path without a slash would make dlopen search the library path; plugins are files.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  return LoadFile(file, path);
}

absl::StatusOr<std::unique_ptr<Backend>> LoadPluginCopy(const std::string& bytes,
                                                        const std::string& name) {
  absl::StatusOr<int> fd = SealedCopy(bytes);
  if (!fd.ok())
    return absl::Status(fd.status().code(),
                        absl::StrCat("plugin.load: ", name, ": ", fd.status().message()));
  // The descriptor stays open for the life of the process, as the library's handle does: the
  // name the plugin sees for itself (dladdr) stays the sealed copy.
  absl::StatusOr<std::unique_ptr<Backend>> b = LoadFile(absl::StrCat("/proc/self/fd/", *fd), name);
  if (!b.ok() && absl::StartsWith(b.status().message(), "plugin.load:") &&
      RunpathNamesOrigin(bytes)) {
    return absl::Status(
        b.status().code(),
        absl::StrCat(b.status().message(),
                     " (its RUNPATH or RPATH names $ORIGIN, which for a copy in memory is "
                     "/proc/self/fd, not the plugin's folder: a library found next to the plugin "
                     "is not found next to the copy; link it by an absolute RUNPATH or put it on "
                     "the loader's path, LD_LIBRARY_PATH)"));
  }
  return b;
}

absl::StatusOr<std::unique_ptr<Backend>> WrapPluginTable(const dmconf_plugin* p,
                                                         absl::string_view what) {
  if (p == nullptr || (p->abi_version != 1u && p->abi_version != DMCONF_PLUGIN_ABI_VERSION)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "plugin.abi: ", what, " does not provide ABI version 1 or ", DMCONF_PLUGIN_ABI_VERSION));
  }
  // run may be NULL in a version-2 table that has shape inference: a plugin with shape
  // inference only (its kernel lane is "not provided").
  const bool shape_only = p->abi_version >= 2u && p->run == nullptr &&
                          (p->infer_static != nullptr || p->infer_partial != nullptr);
  if (p->run == nullptr && !shape_only) {
    return absl::InvalidArgumentError(
        absl::StrCat("plugin.abi: ", what,
                     ": run is NULL (allowed only in a version-2 table with infer_static or "
                     "infer_partial: shape inference without kernels)"));
  }
  absl::StatusOr<Capabilities> caps = ReadCapabilities(p);
  if (!caps.ok()) return caps.status();
  // The version-2 fields exist only in a version-2 table.
  if (p->abi_version >= 2u) {
    caps->infer_static = p->infer_static != nullptr;
    caps->infer_partial = p->infer_partial != nullptr;
  }
  caps->kernels = p->run != nullptr;
  return std::unique_ptr<Backend>(new PluginBackend(p, *std::move(caps)));
}

BackendFactory PluginFactory(const std::string& path) {
  return [path]() { return LoadPluginBackend(path); };
}

BackendFactory PluginCopyFactory(std::shared_ptr<const std::string> bytes,
                                 const std::string& name) {
  return [bytes = std::move(bytes), name]() { return LoadPluginCopy(*bytes, name); };
}

}  // namespace dmconf
