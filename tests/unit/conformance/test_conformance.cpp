// SPDX-License-Identifier: Apache-2.0
// Runs every scenarios/conformance/<case>/: input.yaml through the same path as
// `drasim allocate -o yaml`, checks the `# expect:` lines of the input (facts derived from the DRA
// semantics note) and diffs the whole output against expected.yaml (or, for invalid input, the
// diagnostics against expected-error.txt).
//
// Regenerate goldens after a reviewed behaviour change:
//   DRASIM_UPDATE_GOLDENS=1 build-<you>/tests/unit/conformance/conformance_tests
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/api/feature_gates.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/batch_permit.h"
#include "core/scheduler/cluster.h"
#include "core/session/one_shot.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

namespace fs = std::filesystem;
using namespace drasim;

namespace {

const fs::path kRoot = fs::path(DRASIM_SOURCE_DIR) / "scenarios" / "conformance";

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeFile(const fs::path& p, const std::string& text)
{
    std::ofstream out(p, std::ios::binary);
    out << text;
}

std::vector<std::string> caseNames()
{
    std::vector<std::string> out;
    if (!fs::exists(kRoot))
        return out;
    for (const auto& e : fs::directory_iterator(kRoot))
        if (e.is_directory() && fs::exists(e.path() / "input.yaml"))
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

struct Outcome
{
    bool invalid = false;
    std::string errors; ///< diagnostics text (stderr of the CLI)
    std::string yaml; ///< stdout of the CLI
    std::vector<api::ResourceClaim> claims;
    std::vector<api::Pod> pods;
    std::vector<api::PodGroup> groups; ///< with the condition their cycle left
};

/// The cluster a case runs on: `# kubernetes-version: 1.36` and `# feature-gates: A=true,B=false`
/// lines of the input, as `--kubernetes-version` and `--feature-gates` (1.37 defaults without).
api::FeatureGates gatesOf(const std::string& input, std::string& error)
{
    api::FeatureGates gates;
    std::istringstream lines(input);
    std::string line;
    while (std::getline(lines, line)) {
        const std::string version = "# kubernetes-version: ", flags = "# feature-gates: ";
        if (line.rfind(version, 0) == 0) {
            const auto v = api::parseKubernetesVersion(line.substr(version.size()));
            if (!v)
                error = "bad version line: " + line;
            else
                gates = api::FeatureGates(*v);
        } else if (line.rfind(flags, 0) == 0) {
            if (std::string e = gates.parse(line.substr(flags.size())); !e.empty())
                error = e;
        }
    }
    return gates;
}

Outcome runCase(const std::string& name)
{
    Outcome o;
    const std::string rel = "scenarios/conformance/" + name + "/input.yaml";
    const std::string input = readFile(kRoot / name / "input.yaml");
    yamlio::LoadOptions options;
    std::string gateError;
    options.gates = gatesOf(input, gateError);
    if (!gateError.empty()) {
        o.invalid = true;
        o.errors = gateError;
        return o;
    }
    auto loaded = yamlio::loadText(input, rel, options);
    o.errors = loaded.diagnostics.formatAll();
    if (loaded.diagnostics.hasErrors()) {
        o.invalid = true;
        return o;
    }
    // A case with PodGroups runs as `drasim allocate` runs it (session::scheduleManifests: a group
    // cycle per PodGroup) and prints the scheduling.k8s.io objects first, as it does; the other
    // cases schedule pod by pod and print claims and pods, the output they were written against.
    const api::ObjectSet objects = loaded.objects;
    // So does a 1.35 case whose pods name a gang in spec.workloadRef (its members wait at Permit).
    const bool groups = !objects.podGroups.empty() || scheduler::hasWorkloadRefs(objects.pods);
    scheduler::Cluster cluster(std::move(loaded.objects), session::clusterOptionsFor(options.gates, {}));
    o.errors += cluster.diagnostics().formatAll();
    if (cluster.diagnostics().hasErrors()) {
        o.invalid = true;
        return o;
    }
    auto batch = groups ? session::scheduleManifests(cluster, objects, options.gates, o.groups)
                        : scheduler::scheduleAll(cluster, objects.pods);
    DataValue items = DataValue::list();
    if (groups)
        session::appendSchedulingObjects(items, objects, o.groups);
    for (const auto* c : cluster.claims()) {
        items.push(yamlio::toData(*c));
        o.claims.push_back(*c);
    }
    for (const auto& p : batch.pods)
        items.push(yamlio::toData(p));
    o.pods = batch.pods;
    DataValue list = DataValue::map();
    list.set("apiVersion", "v1");
    list.set("kind", "List");
    list.set("items", std::move(items));
    o.yaml = toYaml(list);
    return o;
}

std::string qualified(const std::string& n)
{
    return n.find('/') == std::string::npos ? "default/" + n : n;
}

std::string keyOf(const api::ObjectMeta& m)
{
    return (m.namespace_.empty() ? std::string("default") : m.namespace_) + "/" + m.name;
}

/// The pods preemption chose as victims (DisruptionTarget, reason PreemptionByScheduler), in
/// input order: "A,B", or "-" for none.
std::string victimsOf(const Outcome& o)
{
    std::string out;
    for (const auto& p : o.pods)
        for (const auto& c : p.conditions)
            if (c.type == "DisruptionTarget" && c.status == "True" && c.reason == "PreemptionByScheduler")
                out += (out.empty() ? "" : ",") + p.meta.name;
    return out.empty() ? "-" : out;
}

/// The status of the PodGroup's scheduling condition (PodGroupInitiallyScheduled in 1.37,
/// PodGroupScheduled in 1.36): "True", "False", or what is missing.
std::string groupConditionOf(const Outcome& o, const std::string& key)
{
    for (const auto& g : o.groups) {
        if (keyOf(g.meta) != key)
            continue;
        for (const auto& c : g.conditions)
            if (c.type == "PodGroupInitiallyScheduled" || c.type == "PodGroupScheduled")
                return c.status;
        return "without a scheduling condition";
    }
    return "missing";
}

/// Checks one `# expect:` line; returns an error text or "".
std::string checkExpect(const Outcome& o, const std::string& line)
{
    std::istringstream in(line);
    std::string what, name, verb;
    in >> what;
    if (what == "error") {
        std::string text;
        std::getline(in >> std::ws, text);
        if (!o.invalid)
            return "expected invalid input, but the run succeeded";
        return o.errors.find(text) == std::string::npos ? "diagnostics lack: " + text + "\n got:\n" + o.errors
                                                        : "";
    }
    if (o.invalid)
        return "unexpected invalid input:\n" + o.errors;
    in >> name >> verb;
    if (what == "victims")
        return victimsOf(o) == name ? "" : "victims " + victimsOf(o);
    if (what == "group")
        return groupConditionOf(o, qualified(name)) == verb
            ? ""
            : "group " + name + " " + groupConditionOf(o, qualified(name));
    std::string rest;
    std::getline(in >> std::ws, rest);
    name = qualified(name);
    if (what == "pod") {
        auto it = std::find_if(
            o.pods.begin(), o.pods.end(), [&](const api::Pod& p) { return keyOf(p.meta) == name; });
        if (it == o.pods.end())
            return "no pod " + name;
        std::string message;
        for (const auto& c : it->conditions)
            if (c.type == "PodScheduled")
                message = c.message;
        if (verb == "bound")
            return it->spec.nodeName.empty() ? "pod " + name + " pending (" + message + ")" : "";
        if (verb == "node")
            return it->spec.nodeName == rest
                ? ""
                : "pod " + name + " on '" + it->spec.nodeName + "' (" + message + ")";
        if (!it->spec.nodeName.empty())
            return "pod " + name + " unexpectedly on " + it->spec.nodeName;
        if (verb == "nominated") {
            const std::string want = rest == "-" ? std::string() : rest;
            return it->nominatedNodeName == want
                ? ""
                : "pod " + name + " nominated to '" + it->nominatedNodeName + "' (" + message + ")";
        }
        if (verb == "pending")
            return message == rest ? "" : "pod " + name + " message '" + message + "'";
        if (verb == "pending-contains")
            return message.find(rest) != std::string::npos ? ""
                                                           : "pod " + name + " message '" + message + "'";
        return "bad verb " + verb;
    }
    if (what == "claim") {
        auto it = std::find_if(o.claims.begin(), o.claims.end(),
            [&](const api::ResourceClaim& c) { return keyOf(c.meta) == name; });
        if (verb == "absent")
            return it == o.claims.end() ? "" : "claim " + name + " exists";
        if (it == o.claims.end())
            return "no claim " + name;
        if (verb == "unallocated")
            return it->allocation ? "claim " + name + " is allocated" : "";
        if (verb == "devices") {
            if (!it->allocation)
                return "claim " + name + " is not allocated";
            std::string got;
            for (const auto& r : it->allocation->results)
                got += (got.empty() ? "" : ",") + r.request + "=" + r.pool + "/" + r.device;
            return got == rest ? "" : "claim " + name + " devices " + got;
        }
        if (verb == "config") {
            // SOURCE:REQ+REQ per entry, SOURCE:* for an entry that names no request (all of them).
            if (!it->allocation)
                return "claim " + name + " is not allocated";
            std::string got;
            for (const auto& c : it->allocation->config) {
                std::string requests;
                for (const auto& r : c.requests)
                    requests += (requests.empty() ? "" : "+") + r;
                got += (got.empty() ? "" : ",") + c.source + ":" + (requests.empty() ? "*" : requests);
            }
            return got == rest ? "" : "claim " + name + " config " + got;
        }
        if (verb == "reserved") {
            std::string got;
            for (const auto& r : it->reservedFor)
                got += (got.empty() ? "" : ",") + r.name;
            return got == rest ? "" : "claim " + name + " reserved " + got;
        }
        return "bad verb " + verb;
    }
    return "bad expect line: " + line;
}

class Conformance : public ::testing::TestWithParam<std::string>
{
};

TEST_P(Conformance, Case)
{
    const std::string name = GetParam();
    const fs::path dir = kRoot / name;
    const std::string input = readFile(dir / "input.yaml");
    Outcome o = runCase(name);

    std::istringstream lines(input);
    std::string line;
    int expects = 0;
    while (std::getline(lines, line)) {
        const std::string tag = "# expect: ";
        if (line.rfind(tag, 0) != 0)
            continue;
        ++expects;
        std::string err = checkExpect(o, line.substr(tag.size()));
        EXPECT_TRUE(err.empty()) << name << ": expect '" << line.substr(tag.size()) << "': " << err;
    }
    EXPECT_GT(expects, 0) << name << " states no expectations";

    const bool update = std::getenv("DRASIM_UPDATE_GOLDENS") != nullptr;
    const fs::path golden = dir / (o.invalid ? "expected-error.txt" : "expected.yaml");
    const std::string actual = o.invalid ? o.errors : o.yaml;
    if (update) {
        writeFile(golden, actual);
        fs::remove(dir / (o.invalid ? "expected.yaml" : "expected-error.txt"));
        return;
    }
    ASSERT_TRUE(fs::exists(golden)) << name << ": missing " << golden.filename();
    const std::string expected = readFile(golden);
    if (expected == actual)
        return;
    // Point at the first differing line: whole-file dumps are unreadable.
    std::istringstream a(expected), b(actual);
    std::string la, lb;
    int n = 0;
    while (true) {
        bool ga = bool(std::getline(a, la)), gb = bool(std::getline(b, lb));
        ++n;
        if (!ga && !gb)
            break;
        if (!ga || !gb || la != lb) {
            ADD_FAILURE() << name << ": output differs from " << golden.filename() << " at line " << n
                          << "\n  expected: " << (ga ? la : "<end>")
                          << "\n  actual:   " << (gb ? lb : "<end>");
            break;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Conformance, ::testing::ValuesIn(caseNames()),
    [](const ::testing::TestParamInfo<std::string>& info) {
        std::string s = info.param;
        std::replace(s.begin(), s.end(), '-', '_');
        return s;
    });

TEST(ConformanceSuite, HasCases)
{
    EXPECT_GE(caseNames().size(), 100u);
}

} // namespace
