// What `onnx-run verify` prints and writes from a VerifyReport (suite/verify.h): the text
// (one line per node, the differing outputs' worst elements under it, a closing summary
// naming the first differing node in graph order) and the JUnit file (one test case per
// checked node). The JSON document is verify_json (suite/json_documents.h).
#pragma once

#include <string>

#include "suite/report.h"
#include "suite/verify.h"

namespace onnxrun {

// `quiet`: only the nodes that differ, and the summary.
std::string verify_text(const VerifyReport& r, bool quiet);

// "4 nodes: 2 checked (1 exact, 1 differs), 2 not checked; first differing node: 'lr2' (LeakyRelu)".
std::string verify_summary_line(const VerifyReport& r);

// For `onnx-run info --verify`: what verify would check of each node (plan_verify) and
// the values it needs, in graph order, so a user knows what to dump (the initializers of
// `g` are the model's own and not needed).
std::string verify_plan_text(const std::vector<NodeCheck>& plan, const Graph& g);

// junit_report's schema (suite/report.h), one <testcase> per checked node, named by the
// node and classed by its operator; a node that differs is a <failure> whose text is its
// report. With require_all, each runnable node not checked is an <error>.
std::string verify_junit(const VerifyReport& r, const ReportStamp& stamp);

}  // namespace onnxrun
