#include "fuzz/perturb.h"

#include <cstdio>
#include <cstdlib>

#include "harness/gen/builders.h"
#include "harness/gen/describe.h"

namespace dmconf {
namespace {

int64_t RawInt(FuzzedDataProvider& fdp) {
  // Mostly small values around the interesting edges, sometimes any int64.
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return fdp.ConsumeIntegralInRange<int64_t>(-2, 17);
    case 1:
      return int64_t{1} << fdp.ConsumeIntegralInRange<int>(0, 62);
    default:
      return fdp.ConsumeIntegral<int64_t>();
  }
}

void RawVector(FuzzedDataProvider& fdp, std::vector<int64_t>* v) {
  if (fdp.ConsumeBool() || v->empty()) {
    v->resize(fdp.ConsumeIntegralInRange<size_t>(0, 4));
    for (int64_t& x : *v) x = RawInt(fdp);
  } else {
    (*v)[fdp.ConsumeIntegralInRange<size_t>(0, v->size() - 1)] = RawInt(fdp);
  }
}

}  // namespace

void Perturb(FuzzedDataProvider& fdp, OpCase* c, int64_t max_elements) {
  const int n = fdp.ConsumeIntegralInRange<int>(0, 3);
  for (int k = 0; k < n; ++k) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: {  // a data dim, or the rank
        Shape s = c->data.shape;
        if (fdp.ConsumeBool() || s.empty()) {
          s.resize(fdp.ConsumeIntegralInRange<size_t>(0, 9), 1);
        } else {
          s[fdp.ConsumeIntegralInRange<size_t>(0, s.size() - 1)] = RawInt(fdp);
        }
        absl::StatusOr<int64_t> count = NumElements(s);
        if (count.ok() && *count <= max_elements) {
          c->data = PositionalTensor(c->data.type, s);
        } else {
          c->data.shape = s;
        }
        break;
      }
      case 1:  // an integer input: values, type or count
        if (!c->int_inputs.empty() && fdp.ConsumeBool()) {
          Tensor& t =
              c->int_inputs[fdp.ConsumeIntegralInRange<size_t>(0, c->int_inputs.size() - 1)];
          std::vector<int64_t> v;
          for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
          RawVector(fdp, &v);
          absl::StatusOr<Tensor> x = MakeIntegerTensor(ElementType::kI64, v);
          if (x.ok()) t = *x;
        } else if (fdp.ConsumeBool() && !c->int_inputs.empty()) {
          c->int_inputs.pop_back();
        } else {
          c->int_inputs.push_back(*MakeIntegerTensor(ElementType::kI64, {RawInt(fdp)}));
        }
        break;
      case 2:
        c->block_size = RawInt(fdp);
        break;
      case 3:
        c->mode = fdp.ConsumeRandomLengthString(16);
        break;
      case 4:
        c->auto_pad = fdp.ConsumeRandomLengthString(16);
        break;
      case 5:
        RawVector(fdp, &c->sizes);
        break;
      case 6:
        RawVector(fdp, &c->strides);
        break;
      default:
        RawVector(fdp, &c->rates);
    }
  }
}

void FuzzFail(const OpCase& c, const char* what) {
  std::fprintf(stderr, "dmconf fuzz failure: %s\n  case %s %s\n  repro: %s\n", what,
               std::string(OpName(c.op)).c_str(), ShapeToString(c.data.shape).c_str(),
               ReproCommand(c).c_str());
  std::abort();
}

}  // namespace dmconf
