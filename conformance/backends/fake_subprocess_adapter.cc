// A deliberately simple dmconf-subprocess/1 adapter for the protocol tests. It implements
// DepthToSpace with block_size 1 (the identity) for every element type, and misbehaves on
// request through the mode attribute: "reject", "unsupported", "garbage" (a non-JSON line),
// "wrong_id", "crash" (abort), "partial" (writes half a response, then aborts), "hang" (never
// answers), "exit" (exits without answering).
// `fake_subprocess_adapter --other-version` greets with another protocol version.
// `fake_subprocess_adapter --shapes` speaks dmconf-subprocess/2 and answers infer_static /
// infer_partial with dmconf's own partial inference (so every answer is the oracle's), except
// for infer_static of DepthToSpace with depth 18 and block_size 3, where it adds 1 to the last
// dim of its answer.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "harness/backends/subprocess/protocol.h"

namespace ds = dmconf::subprocess;

int main(int argc, char** argv) {
  const bool other_version = argc > 1 && std::string(argv[1]) == "--other-version";
  const bool shapes = argc > 1 && std::string(argv[1]) == "--shapes";
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find("\"hello\"") != std::string::npos) {
      if (other_version) {
        std::cout << R"({"protocol":"dmconf-subprocess/9","name":"fake","capabilities":[]})"
                  << std::endl;
        continue;
      }
      ds::Hello h;
      h.name = "fake";
      h.version = std::string(1, '1');  // not = "1": a false -Wrestrict of g++ 12 at -O3
      dmconf::OpSupport s;
      s.op = dmconf::Op::kDepthToSpace;
      for (dmconf::ElementType t : dmconf::AllElementTypes()) s.element_types.insert(t);
      s.min_rank = 3;
      s.max_rank = 8;
      h.capabilities.ops.push_back(s);
      if (shapes) {
        h.protocol = std::string(ds::kProtocol2);
        h.capabilities.ops.clear();
        for (dmconf::Op op : dmconf::AllOps()) {
          dmconf::OpSupport all = s;
          all.op = op;
          all.min_rank = 0;
          all.max_rank = 64;
          h.capabilities.ops.push_back(all);
        }
        h.capabilities.infer_static = true;
        h.capabilities.infer_partial = true;
      }
      std::cout << ds::EncodeHelloResponse(h) << std::endl;
      continue;
    }
    if (line.find("\"infer_") != std::string::npos) {
      absl::StatusOr<ds::ShapeRequest> q = ds::DecodeShapeRequest(line);
      if (!q.ok()) {
        std::cerr << "fake adapter: " << q.status() << "\n";
        return 3;
      }
      dmconf::ShapeOutcome r;
      absl::StatusOr<dmconf::PartialResult> a = dmconf::InferPartialShape(q->c);
      if (!a.ok() || a->kind == dmconf::PartialKind::kMustReject || !a->has_output) {
        r.kind = dmconf::ShapeOutcome::Kind::kRejected;
        r.message = a.ok() ? a->message : std::string(a.status().message());
      } else {
        r.shape = a->output;
        r.type = q->c.type;
        if (!q->partial && q->c.op == dmconf::Op::kDepthToSpace && q->c.block_size == 3 &&
            r.shape.dims && r.shape.dims->size() == 4 && q->c.data.dims &&
            (*q->c.data.dims)[1].lo == 18) {
          dmconf::Dim& d = r.shape.dims->back();
          d.lo += 1;
          if (d.hi) *d.hi += 1;
        }
      }
      std::cout << ds::EncodeShapeResponse(q->id, r) << std::endl;
      continue;
    }
    if (line.find("\"shutdown\"") != std::string::npos) return 0;
    absl::StatusOr<dmconf::OpCase> c = ds::DecodeRunRequest(line);
    if (!c.ok()) {
      std::cerr << "fake adapter: " << c.status() << "\n";
      return 3;
    }
    const std::string mode = c->mode.value_or("");
    dmconf::RunOutcome r;
    if (mode == "crash") std::abort();
    if (mode == "partial") {
      std::cout << R"({"id":")" << c->id << R"(","outcome":"rej)" << std::flush;
      std::abort();
    }
    if (mode == "exit") return 0;
    if (mode == "hang") {
      sleep(3600);
      return 0;
    }
    if (mode == "garbage") {
      std::cout << "this is not json" << std::endl;
      continue;
    }
    if (mode == "wrong_id") {
      std::cout << ds::EncodeRunResponse("another-case", r) << std::endl;
      continue;
    }
    if (mode == "reject" || c->block_size.value_or(1) != 1) {
      r.kind = dmconf::RunOutcome::Kind::kRejected;
      r.message = "fake: refused";
    } else if (mode == "unsupported") {
      r.kind = dmconf::RunOutcome::Kind::kUnsupported;
      r.message = "fake: not here";
    } else {
      r.output = c->data;  // block_size 1: the identity
    }
    std::cout << ds::EncodeRunResponse(c->id, r) << std::endl;
  }
  return 0;
}
