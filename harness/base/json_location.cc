#include "harness/base/json_location.h"

#include <algorithm>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dmconf::io {

JsonLoc JsonLoc::Key(absl::string_view key) const {
  std::string escaped;
  for (char c : key) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return {file, absl::StrCat(pointer, "/", escaped), deferred};
}

JsonLoc JsonLoc::Index(size_t i) const { return {file, absl::StrCat(pointer, "/", i), deferred}; }

std::string JsonLoc::ToString() const {
  return absl::StrCat(file, ": ", pointer.empty() ? "(document)" : pointer);
}

namespace {

// Where the parser is: one frame per open object or array.
struct Frame {
  bool object = false;
  std::set<std::string> keys;
  std::string key;     // objects: the current member
  size_t index = 0;    // arrays: the current element
  bool watch = false;  // arrays: the one being deferred (first pass) or visited (second)
};

// An array that is the value of a "data" member.
bool IsDataArray(const std::vector<Frame>& frames) {
  return frames.size() >= 2 && frames[frames.size() - 2].object &&
         frames[frames.size() - 2].key == "data";
}

JsonLoc Here(const std::vector<Frame>& frames, const std::string& file) {
  JsonLoc loc{file, ""};
  for (const Frame& f : frames) loc = f.object ? loc.Key(f.key) : loc.Index(f.index);
  return loc;
}

}  // namespace

nlohmann::json ParseJsonNotingDuplicates(absl::string_view text, JsonLoc* duplicate,
                                         DeferredArrays* deferred) {
  std::vector<Frame> frames;
  const std::string file = duplicate->file;
  bool found = false;
  // A value ended: an array that holds it moves on to its next element.
  auto value_done = [&] {
    if (!frames.empty() && !frames.back().object) ++frames.back().index;
  };
  using E = nlohmann::json::parse_event_t;
  auto callback = [&](int, E event, nlohmann::json& parsed) {
    switch (event) {
      case E::object_start:
        frames.emplace_back();
        frames.back().object = true;
        break;
      case E::array_start:
        frames.emplace_back();
        frames.back().watch = deferred != nullptr && IsDataArray(frames);
        break;
      case E::key: {
        Frame& top = frames.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && !found) {
          found = true;
          *duplicate = Here(frames, file);
        }
        break;
      }
      case E::object_end:
        frames.pop_back();
        value_done();
        break;
      case E::array_end: {
        const Frame top = std::move(frames.back());
        frames.pop_back();
        if (top.watch && top.index > deferred->threshold) {
          // Its elements past the threshold were dropped: drop the first ones too, and note
          // where the array is and how long.
          deferred->counts[Here(frames, file).pointer] = top.index;
          parsed = nlohmann::json::array();
        }
        value_done();
        break;
      }
      case E::value: {
        Frame* top = frames.empty() ? nullptr : &frames.back();
        const bool drop = top != nullptr && top->watch && top->index >= deferred->threshold;
        value_done();
        return !drop;
      }
    }
    return true;
  };
  nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), callback);
  if (!found) duplicate->pointer.clear();
  return j;
}

void VisitArrayElements(absl::string_view text, const std::string& array,
                        const std::function<bool(size_t, const nlohmann::json&)>& visit) {
  std::vector<Frame> frames;
  bool visiting = true;
  using E = nlohmann::json::parse_event_t;
  // Containers are kept (a skeleton without scalars: a few bytes), every scalar is dropped.
  auto callback = [&](int, E event, nlohmann::json& parsed) {
    switch (event) {
      case E::object_start:
        frames.emplace_back();
        frames.back().object = true;
        return true;
      case E::array_start: {
        const bool watch = Here(frames, "").pointer == array;
        frames.emplace_back();
        frames.back().watch = watch;
        return true;
      }
      case E::key:
        frames.back().key = parsed.get<std::string>();
        return true;
      case E::object_end:
      case E::array_end:
        frames.pop_back();
        if (!frames.empty() && !frames.back().object) ++frames.back().index;
        return true;
      case E::value: {
        Frame* top = frames.empty() ? nullptr : &frames.back();
        if (top != nullptr && top->watch && visiting) visiting = visit(top->index, parsed);
        if (top != nullptr && !top->object) ++top->index;
        return false;
      }
    }
    return false;
  };
  const nlohmann::json skeleton = nlohmann::json::parse(text.begin(), text.end(), callback);
  (void)skeleton;
}

int JsonNestingDepth(absl::string_view text, int limit) {
  JsonTextScan scan;
  int max_depth = 0;
  for (char ch : text) {
    if (scan.Step(ch)) max_depth = std::max(max_depth, scan.depth());
    if (max_depth > limit) break;
  }
  return max_depth;
}

absl::Status LocError(absl::string_view rule, const JsonLoc& loc, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(rule, ": ", loc.ToString(), ": ", what));
}

absl::Status CheckObject(const nlohmann::json& obj, const JsonLoc& loc,
                         std::initializer_list<absl::string_view> allowed) {
  if (!obj.is_object()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an object, found ", obj.type_name()));
  }
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (absl::string_view a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (absl::string_view a : allowed) absl::StrAppend(&list, list.empty() ? "" : ", ", a);
      return LocError("vector.field.unknown", loc.Key(key),
                      absl::StrCat("unknown member '", key, "' (expected: ", list, ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const nlohmann::json*> Member(const nlohmann::json& obj, const JsonLoc& loc,
                                             absl::string_view key, bool required) {
  auto it = obj.find(std::string(key));
  if (it == obj.end()) {
    if (required) {
      return LocError("vector.field.missing", loc,
                      absl::StrCat("required member '", key, "' is missing"));
    }
    return nullptr;
  }
  return &*it;
}

absl::StatusOr<std::string> ReadString(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_string()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected a string, found ", v.type_name()));
  }
  return v.get<std::string>();
}

absl::StatusOr<int64_t> ReadInt64(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_number_integer()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an integer, found ", v.type_name(),
                                 v.is_number_float() ? absl::StrCat(" ", v.dump()) : ""));
  }
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return LocError("vector.field.type", loc,
                    absl::StrCat(v.dump(), " is outside the int64 range"));
  }
  return v.get<int64_t>();
}

absl::StatusOr<uint64_t> ReadUint64(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_number_unsigned()) {
    return LocError(
        "vector.field.type", loc,
        absl::StrCat("expected a non-negative integer, found ", v.dump().substr(0, 40)));
  }
  return v.get<uint64_t>();
}

absl::StatusOr<bool> ReadBool(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_boolean()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected true or false, found ", v.type_name()));
  }
  return v.get<bool>();
}

absl::StatusOr<std::vector<int64_t>> ReadInt64List(const nlohmann::json& v, const JsonLoc& loc,
                                                   size_t max_size) {
  if (!v.is_array()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an array of integers, found ", v.type_name()));
  }
  if (v.size() > max_size) {
    return LocError("vector.field.size", loc,
                    absl::StrCat(v.size(), " values; at most ", max_size, " are accepted"));
  }
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<int64_t> x = ReadInt64(v[i], loc.Index(i));
    if (!x.ok()) return x.status();
    out.push_back(*x);
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> ReadStringList(const nlohmann::json& v,
                                                        const JsonLoc& loc) {
  if (!v.is_array()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an array of strings, found ", v.type_name()));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<std::string> s = ReadString(v[i], loc.Index(i));
    if (!s.ok()) return s.status();
    out.push_back(*std::move(s));
  }
  return out;
}

}  // namespace dmconf::io
