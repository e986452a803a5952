#include "harness/report/status_matrix.h"

#include <map>
#include <string>
#include <tuple>

namespace dmconf {

void StatusCell::Add(const CaseResult& c) {
  ++cases;
  if (c.known != nullptr) {
    ++known;
  } else if (c.failure) {
    ++failed;
  } else if (c.verdict == Verdict::kUnsupported) {
    ++unsupported;
  } else {
    ++passed;
  }
}

const char* StatusCell::Status() const {
  if (failed + known > 0) return "failing";
  return passed > 0 ? "implemented" : "unsupported";
}

const char* MatrixLane(const CaseResult& c) { return IsShapeLane(c.lane) ? "shape" : "kernel"; }

nlohmann::ordered_json StatusMatrixJson(const BackendRun& run) {
  using Json = nlohmann::ordered_json;
  std::map<std::tuple<Op, ElementType, int, std::string>, StatusCell> cells;
  for (const CaseResult& c : run.results) cells[{c.op, c.type, c.rank, MatrixLane(c)}].Add(c);
  Json out = Json::array();
  for (const auto& [key, cell] : cells) {
    out.push_back(Json{{"op", std::string(OpName(std::get<0>(key)))},
                       {"element_type", std::string(ElementTypeName(std::get<1>(key)))},
                       {"rank", std::get<2>(key)},
                       {"lane", std::get<3>(key)},
                       {"status", cell.Status()},
                       {"cases", cell.cases}});
  }
  return out;
}

}  // namespace dmconf
