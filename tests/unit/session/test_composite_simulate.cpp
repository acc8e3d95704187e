// SPDX-License-Identifier: Apache-2.0
// A CompositePodGroup hierarchy's first placement in `drasim simulate` is the placement `drasim
// allocate` gives the same manifests: both run the one hierarchy cycle (scheduler/group_tree.h)
// on the same cluster, the simulation once the hierarchy's pods exist.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/session/one_shot.h"
#include "core/session/session.h"
#include "core/sim/run_prepared.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;

namespace composite_simulate_test {

const std::string kLearn = DRASIM_SOURCE_DIR "/scenarios/learn/20-composite-pod-group/";

struct FirstPlacements : sim::RunRecorder
{
    /// By the manifest Pod each one comes from (the simulation names it "<job>-0").
    std::map<std::string, std::string> nodeOf; ///< bound at time 0
    std::map<std::string, std::string> pendingAtZero; ///< unschedulable at time 0: why, first said
    void onPodEvent(const sim::PodEvent& e) override
    {
        if (e.time != 0)
            return;
        const std::string manifest = e.pod.substr(0, e.pod.find('/') + 1) + e.job;
        if (e.type == sim::PodEventType::Created)
            names.emplace_back(e.pod, manifest);
        if (e.type == sim::PodEventType::Scheduled)
            nodeOf[manifest] = e.node;
        if (e.type == sim::PodEventType::Unschedulable) // the first cycle's word (leftovers are tried again)
            pendingAtZero.emplace(manifest, e.message);
    }
    /// A message with the pods it names called by their manifest names.
    std::string inManifestNames(std::string message) const
    {
        auto nameChar = [](char c) { return std::isalnum((unsigned char)c) || c == '-' || c == '.'; };
        for (const auto& [simulated, manifest] : names)
            for (size_t at = 0; (at = message.find(simulated, at)) != std::string::npos;) {
                const size_t end = at + simulated.size();
                if (end < message.size() && nameChar(message[end])) {
                    at = end;
                    continue;
                }
                message.replace(at, simulated.size(), manifest);
                at += manifest.size();
            }
        return message;
    }

private:
    std::vector<std::pair<std::string, std::string>> names; ///< simulated pod, manifest pod
};

struct Placement
{
    std::map<std::string, std::string> nodeOf; ///< bound pods
    std::map<std::string, std::string> pending; ///< the others: the scheduler's message
};

/// `drasim allocate` of `files`.
Placement allocate(const std::vector<std::string>& files, const api::FeatureGates& gates)
{
    session::Session s;
    s.setFeatureGates(gates);
    EXPECT_TRUE(s.openManifests(files)) << s.diagnostics().formatAll();
    auto cluster = s.buildCluster({});
    EXPECT_TRUE(cluster);
    if (!cluster)
        return {};
    std::vector<api::PodGroup> groups;
    const scheduler::BatchResult batch = session::scheduleManifests(*cluster, s.objects(), gates, groups);
    Placement out;
    for (const api::Pod& p : batch.pods) {
        const std::string key = p.meta.namespace_ + "/" + p.meta.name;
        if (!p.spec.nodeName.empty())
            out.nodeOf[key] = p.spec.nodeName;
        for (const auto& c : p.conditions)
            if (c.type == "PodScheduled" && c.status == "False")
                out.pending[key] = c.message;
    }
    return out;
}

/// `drasim simulate` of `scenario`: what time 0 bound and said.
FirstPlacements simulate(const std::string& scenario, api::FeatureGates& gates)
{
    FirstPlacements first;
    session::Session s;
    EXPECT_TRUE(s.open({ scenario })) << s.diagnostics().formatAll();
    if (!s.prepared() || !s.scenario())
        return first;
    gates = s.scenario()->featureGates;
    sim::RunOptions options;
    options.recorders.push_back(&first);
    Diagnostics diags;
    EXPECT_TRUE(sim::runPrepared(*s.prepared(), options, diags)) << diags.formatAll();
    return first;
}

/// A conformance case's input as a simulation's cluster and workload, the pods submitted at once.
const char* const kCaseScenario = R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: NAME}
spec:
  seed: 1
  duration: 1h
  scheduler:
    featureGates: {GenericWorkload: true, TopologyAwareWorkloadScheduling: true, CompositePodGroup: true}
  cluster:
    manifests: [INPUT]
  workloads:
  - name: w
    manifests: [INPUT]
    arrival: {process: once}
    duration: 30m
)";

/// The "# feature-gates: ..." line of a conformance case's input.
std::string gatesLine(const std::string& input)
{
    std::ifstream in(input);
    const std::string lead = "# feature-gates: ";
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(lead))
            return line.substr(lead.size());
    return {};
}

} // namespace composite_simulate_test

using namespace composite_simulate_test;

// learn/20: two training jobs, each a CompositePodGroup over two replica PodGroups. allocate
// places train-a in one block, a rack per replica, and leaves train-b pending (one rack of its
// block is taken by the inference server); the simulation binds the same pods on the same nodes at
// time 0 and leaves train-b pending with the same reason.
TEST(CompositeSimulate, FirstPlacementEqualsAllocate)
{
    api::FeatureGates gates;
    const FirstPlacements first
        = simulate(DRASIM_SOURCE_DIR "/tests/cli/data/composite-sim/scenario.yaml", gates);
    const Placement allocated = allocate({ kLearn + "cluster.yaml", kLearn + "workload.yaml" }, gates);
    ASSERT_EQ(allocated.nodeOf.size(), 5u); // serve and train-a's four workers
    EXPECT_EQ(first.nodeOf, allocated.nodeOf);
    ASSERT_EQ(allocated.pending.size(), 4u); // train-b
    EXPECT_EQ(first.pendingAtZero, allocated.pending);
}

// The same over every CompositePodGroup case of the conformance suite (its input both the
// cluster and the workload of a simulation, the pods submitted at once): the pods bound at time 0
// and where are allocate's, and a pod a cycle turned away says what allocate says. A hierarchy
// held before any cycle (its quorum, a missing parent) has no cycle, so no word, in either. The
// simulation creates the pods one after another and queues the root as soon as its quorum holds
// (as kube-scheduler does): where minGroupCount is below the number of children, its first cycle
// runs before the last child's pods exist, so those pods hear another cycle's word than allocate's
// (which sees every pod at once); only their placement is compared there.
/// Whether the manifests bind a pod already (a `nodeName:` line).
bool hasBoundPods(const std::string& path)
{
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (line.find("nodeName:") != std::string::npos)
            return true;
    return false;
}

TEST(CompositeSimulate, FirstPlacementEqualsAllocateOverTheConformanceHierarchies)
{
    const std::filesystem::path cases = DRASIM_SOURCE_DIR "/scenarios/conformance";
    test_support::TempDir dir("drasim-composite");
    int compared = 0, bound = 0, said = 0;
    for (const auto& entry : std::filesystem::directory_iterator(cases)) {
        const std::string name = entry.path().filename().string();
        const std::string input = (entry.path() / "input.yaml").string();
        // The preemption cases start with pods bound (spec.nodeName), which a run's manifests
        // cannot say: their first placements are not comparable.
        if (!name.starts_with("composite-")
            || gatesLine(input).find("CompositePodGroup=true") == std::string::npos || hasBoundPods(input))
            continue;
        std::string text = kCaseScenario;
        for (const auto& [from, to] :
            { std::pair<std::string, std::string> { "NAME", name }, { "INPUT", input } })
            for (size_t at; (at = text.find(from)) != std::string::npos;)
                text.replace(at, from.size(), to);
        const std::string scenario = dir.write(name + ".yaml", text);
        api::FeatureGates gates;
        const FirstPlacements first = simulate(scenario, gates);
        const Placement allocated = allocate({ input }, gates);
        EXPECT_EQ(first.nodeOf, allocated.nodeOf) << name;
        if (name == "composite-min-group-count-met" || name == "composite-min-group-count-unmet") {
            ++compared;
            continue;
        }
        for (const auto& [pod, message] : first.pendingAtZero)
            EXPECT_EQ(first.inManifestNames(message),
                allocated.pending.count(pod) ? allocated.pending.at(pod) : "(bound)")
                << name << " " << pod;
        bound += int(first.nodeOf.size());
        said += int(first.pendingAtZero.size());
        ++compared;
    }
    EXPECT_EQ(compared, 9);
    EXPECT_GT(bound, 0); // the comparison is not vacuous: pods bound, and pods turned away
    EXPECT_GT(said, 0);
}
