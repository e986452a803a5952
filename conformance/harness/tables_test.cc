// The op table (oracle/op_table.h) and the verdict table (harness/backend/verdict.h) against
// every other list of the ops and verdicts. Each op has a row at its own index, names and
// prefixes that parse back to it, rules of its own in the rule table, and an entry in every
// schema's op enum and in the plugin ABI's list of names. Each verdict's row agrees with
// IsFailure, and the report schema's verdict enum names exactly the table's verdicts. The HTML
// page keeps no list of its own: it reads the vocabulary the C++ writer takes from the tables.
// A new op or verdict missing from any of them fails here, by name.
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/backend/verdict.h"
#include "harness/report/html_report.h"
#include "nlohmann/json.hpp"
#include "oracle/element_type.h"
#include "oracle/input_names.h"
#include "oracle/op_table.h"
#include "oracle/rules.h"

namespace dmconf {
namespace {

std::string ReadSource(const std::string& relative) {
  std::ifstream in(absl::StrCat(DMCONF_SOURCE_DIR, "/", relative), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every "enum" array of the schema that holds an op name: the schema's op enums (the
// conditions of an "if", which name some ops on purpose, left out).
void CollectOpEnums(const nlohmann::json& j, std::vector<std::set<std::string>>* out) {
  if (j.is_object()) {
    auto e = j.find("enum");
    if (e != j.end() && e->is_array()) {
      std::set<std::string> names;
      for (const auto& v : *e) {
        if (v.is_string()) names.insert(v.get<std::string>());
      }
      // An op enum: one that names the first op of the table.
      if (names.count(std::string(OpTable()[0].name)) != 0) out->push_back(names);
    }
    for (const auto& [key, value] : j.items()) {
      if (key != "if") CollectOpEnums(value, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) CollectOpEnums(v, out);
  }
}

TEST(OpTable, EveryRowSitsAtItsOpsIndexAndParsesBack) {
  std::set<std::string> names, prefixes;
  ASSERT_EQ(AllOps().size(), OpTable().size());
  for (size_t i = 0; i < OpTable().size(); ++i) {
    const OpRow& row = OpTable()[i];
    EXPECT_EQ(static_cast<size_t>(row.op), i) << row.name;
    EXPECT_EQ(AllOps()[i], row.op);
    EXPECT_EQ(&OpRowOf(row.op), &row);
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
    EXPECT_TRUE(prefixes.insert(std::string(row.prefix)).second) << row.prefix;
    EXPECT_GE(row.version, 1) << row.name;
    EXPECT_FALSE(row.divides.empty()) << row.name;
    for (const std::string& spelling : {std::string(row.name), std::string(row.prefix),
                                        absl::StrCat(row.name, "-", row.version)}) {
      absl::StatusOr<Op> parsed = ParseOp(spelling);
      ASSERT_TRUE(parsed.ok()) << spelling << ": " << parsed.status();
      EXPECT_EQ(*parsed, row.op) << spelling;
    }
    EXPECT_EQ(IntInputNames(row.op).size(), row.int_inputs.size()) << row.name;
    // A mode attribute belongs to an op that has attributes.
    if (!row.mode_attribute.empty()) {
      EXPECT_NE(row.attributes, AttributeGroup::kNone) << row.name;
    }
  }
  absl::StatusOr<Op> unknown = ParseOp("NoSuchOp");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("case.op.known"), std::string::npos);
  for (const OpRow& row : OpTable()) {
    EXPECT_NE(unknown.status().message().find(absl::StrCat(row.name, "-", row.version)),
              std::string::npos)
        << "the unknown-op error lists " << row.name;
  }
}

TEST(OpTable, EveryOpHasRulesOfItsOwnPrefix) {
  for (const OpRow& row : OpTable()) {
    int own = 0;
    for (const Rule& r : AllRules()) {
      if (r.op != row.op) continue;
      ++own;
      EXPECT_EQ(std::string(r.id).rfind(absl::StrCat(row.prefix, "."), 0), 0u)
          << r.id << " is a rule of " << row.name;
    }
    EXPECT_GT(own, 0) << row.name << " has no rule in the rule table";
  }
}

TEST(OpTable, EverySchemaOpEnumNamesEveryOp) {
  for (const char* schema :
       {"reports/dmconf-report-2.schema.json", "vectors/schema/dmconf-vector-1.schema.json",
        "vectors/schema/dmconf-shape-case-1.schema.json"}) {
    const std::string text = ReadSource(schema);
    ASSERT_FALSE(text.empty()) << schema;
    std::vector<std::set<std::string>> enums;
    CollectOpEnums(nlohmann::json::parse(text), &enums);
    EXPECT_FALSE(enums.empty()) << schema << " has no op enum";
    for (const std::set<std::string>& e : enums) {
      for (const OpRow& row : OpTable()) {
        EXPECT_EQ(e.count(std::string(row.name)), 1u) << schema << " lacks " << row.name;
      }
      EXPECT_EQ(e.size(), OpTable().size()) << schema << " names an op the table lacks";
    }
  }
}

TEST(OpTable, ThePluginAbiNamesEveryOp) {
  const std::string text = ReadSource("harness/plugin/dmconf_plugin.h");
  ASSERT_FALSE(text.empty());
  for (const OpRow& row : OpTable()) {
    EXPECT_NE(text.find(absl::StrCat("\"", row.name, "\"")), std::string::npos)
        << "dmconf_plugin.h lacks \"" << row.name << "\"";
  }
}

TEST(VerdictTable, EveryRowSitsAtItsVerdictsIndexAndAgreesWithIsFailure) {
  ASSERT_EQ(AllVerdicts().size(), VerdictTable().size());
  std::set<int> columns;
  std::set<std::string> names;
  for (size_t i = 0; i < VerdictTable().size(); ++i) {
    const VerdictRow& row = VerdictTable()[i];
    EXPECT_EQ(static_cast<size_t>(row.verdict), i) << row.name;
    EXPECT_EQ(AllVerdicts()[i], row.verdict);
    EXPECT_EQ(&VerdictRowOf(row.verdict), &row);
    EXPECT_EQ(ParseVerdict(row.name), row.verdict) << row.name;
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
    EXPECT_TRUE(columns.insert(row.column).second) << row.name << " shares its column";
    EXPECT_EQ(IsFailure(row.verdict, {}), row.fails) << row.name;
    // Each strictness option turns exactly the verdicts it decides.
    const StrictnessOptions all{/*nan_payload_strict=*/true, /*unsupported_fails=*/true,
                                /*strict_shapes=*/true};
    const StrictnessOptions none{/*nan_payload_strict=*/false, /*unsupported_fails=*/false,
                                 /*strict_shapes=*/false};
    if (row.decided_by == DecidedBy::kNothing) {
      EXPECT_EQ(IsFailure(row.verdict, all), row.fails) << row.name;
      EXPECT_EQ(IsFailure(row.verdict, none), row.fails) << row.name;
    } else {
      EXPECT_TRUE(IsFailure(row.verdict, all)) << row.name;
      EXPECT_FALSE(IsFailure(row.verdict, none)) << row.name;
    }
    // A verdict that does not fail is never shrunk; a mutant counts a verdict as one that is
    // its own class.
    if (!row.fails && row.decided_by == DecidedBy::kNothing) {
      EXPECT_FALSE(row.shrunk) << row.name;
    }
    EXPECT_EQ(VerdictRowOf(row.mutant_class).mutant_class, row.mutant_class) << row.name;
  }
  EXPECT_EQ(*columns.begin(), 0);
  EXPECT_EQ(*columns.rbegin(), static_cast<int>(VerdictTable().size()) - 1);
  EXPECT_EQ(ParseVerdict("no_such_verdict"), std::nullopt);
}

TEST(VerdictTable, TheReportSchemaNamesEveryVerdictAndNoOther) {
  const nlohmann::json schema =
      nlohmann::json::parse(ReadSource("reports/dmconf-report-2.schema.json"));
  std::set<std::string> in_schema;
  for (const auto& v : schema.at("definitions").at("verdict").at("enum")) {
    in_schema.insert(v.get<std::string>());
  }
  std::set<std::string> in_table;
  for (const VerdictRow& row : VerdictTable()) in_table.insert(std::string(row.name));
  EXPECT_EQ(in_schema, in_table);
}

TEST(Vocabulary, TheHtmlPageTakesItsListsFromTheTables) {
  const nlohmann::json v = HtmlVocabulary();
  std::vector<std::string> ops, verdicts, types;
  for (const OpRow& row : OpTable()) ops.push_back(std::string(row.name));
  for (Verdict x : VerdictsInColumnOrder()) verdicts.push_back(std::string(VerdictName(x)));
  for (ElementType t : AllElementTypes()) types.push_back(std::string(ElementTypeName(t)));
  EXPECT_EQ(v.at("ops").get<std::vector<std::string>>(), ops);
  EXPECT_EQ(v.at("verdicts").get<std::vector<std::string>>(), verdicts);
  EXPECT_EQ(v.at("element_types").get<std::vector<std::string>>(), types);
  // Column order: pass first, the verdicts that fail under the default strictness before the
  // ones that do not (besides pass), harness_error last.
  ASSERT_EQ(verdicts.size(), VerdictTable().size());
  EXPECT_EQ(verdicts.front(), "pass");
  EXPECT_EQ(verdicts.back(), "harness_error");
  // The script keeps no list of its own: no op name or verdict name quoted in it, and it reads
  // the vocabulary.
  const std::string js = ReadSource("harness/report/html/report.js");
  ASSERT_FALSE(js.empty());
  EXPECT_NE(js.find("data.vocabulary.ops"), std::string::npos);
  EXPECT_NE(js.find("data.vocabulary.verdicts"), std::string::npos);
  EXPECT_NE(js.find("data.vocabulary.element_types"), std::string::npos);
  for (const std::string& op : ops) {
    EXPECT_EQ(js.find(absl::StrCat("'", op, "'")), std::string::npos) << "report.js lists " << op;
  }
}

}  // namespace
}  // namespace dmconf
