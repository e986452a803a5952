#include "harness/report/status_matrix.h"

#include <map>
#include <string>
#include <tuple>

namespace dmconf {

nlohmann::ordered_json StatusMatrixJson(const BackendRun& run) {
  return StatusMatrixJson(TallyOf(run).cells);
}

nlohmann::ordered_json StatusMatrixJson(const StatusCells& cells) {
  using Json = nlohmann::ordered_json;
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
