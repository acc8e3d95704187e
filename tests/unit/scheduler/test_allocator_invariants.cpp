// SPDX-License-Identifier: Apache-2.0
// Laws of the allocator that hold whatever its search order, checked on thousands of small random
// bundles (tests/unit/scheduler/random_bundle.h):
//
//  * every result is a device of the newest generation of a complete, valid pool the node sees,
//    passes its class and request selectors on its current attributes, tolerates its taints, and
//    was free for its request in the attempt (1.34 in-use rules, admin picks included);
//  * no dedicated device is in two allocations (admin results aside); counters and consumable
//    capacity never exceed the pool; constraints hold; every request got exactly its devices;
//  * a pod left unschedulable has no solution on any node (an exhaustive model search agrees);
//  * the outcome is exactly upstream's: the model's plain first-solution search in visit order
//    gives, on the chosen node, the same devices in the same order; where it meets a fatal error on
//    some node, the pod fails with the first such error; where it finds no node, neither does drasim,
//    and the pending message counts each node's reason (no solution, invalid pools, claim not
//    available);
//    every allocation carries the node selector (§3.13) and configuration (§3.12) its results give;
//    the node is the one the default scores and the DRA score pick among the feasible ones (§6.5);
//  * `allocate` and `explain` agree on every pod.
//
// Seeds: DRASIM_INVARIANT_SEED=N runs that one bundle; DRASIM_INVARIANT_BUNDLES=N changes how
// many are run (default 2,000, starting at a fixed seed, or at DRASIM_INVARIANT_SEED when both are
// given). A failure prints the command that reproduces it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "core/scheduler/batch.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/scheduler/allocation_model.h"
#include "tests/unit/scheduler/random_bundle.h"

using namespace drasim;
using namespace drasim::testing;

namespace {

constexpr uint64_t kFirstSeed = 1'000'000;

std::string keyOf(const api::Pod& p)
{
    return "default/" + p.meta.name;
}

/// Dedicated (non-admin, unshared) results of all claims: each device at most once.
std::string dedicatedTwice(const scheduler::Cluster& c)
{
    std::map<std::string, std::string> owner;
    for (const auto* claim : c.claims()) {
        if (!claim->allocation)
            continue;
        for (const auto& r : claim->allocation->results) {
            if (r.adminAccess.value_or(false) || r.shareID)
                continue;
            const std::string d = r.driver + "/" + r.pool + "/" + r.device;
            auto [it, inserted] = owner.emplace(d, claim->meta.name);
            if (!inserted)
                return d + " is dedicated to both " + it->second + " and " + claim->meta.name;
        }
    }
    return {};
}

/// How often each law had something to check: a law that never applies proves nothing.
struct Coverage
{
    int scheduled = 0; ///< results replayed through the model
    int provenPending = 0; ///< pending pods whose every node the model searched exhaustively
    int exact = 0; ///< pods whose outcome the exact search confirmed
    int errors = 0; ///< of those, pods that failed with a fatal allocator error
    int selectorsMerged = 0; ///< allocations whose node selector comes from network slices
    int configs = 0; ///< allocations with configuration entries
    int sharedClaims = 0; ///< pods with a claim allocated before their cycle
    int draScoreChoices = 0; ///< scheduled pods whose feasible nodes differ in DRA score
};

std::string sameConfig(const std::vector<api::DeviceAllocationConfiguration>& want,
    const std::vector<api::DeviceAllocationConfiguration>& got)
{
    auto text = [](const std::vector<api::DeviceAllocationConfiguration>& list) {
        std::string s;
        for (const auto& c : list) {
            s += "[" + c.source + " " + c.opaque.driver + " for";
            for (const auto& r : c.requests)
                s += " " + r;
            s += "]";
        }
        return s;
    };
    return text(want) == text(got) ? "" : "config " + text(got) + ", expected " + text(want);
}

std::string describe(const AllocationModel::Outcome& o)
{
    using Kind = AllocationModel::Outcome::Kind;
    switch (o.kind) {
    case Kind::Success: {
        std::string s = "success:";
        for (const auto& claim : o.results)
            for (const auto& r : claim)
                s += " " + r;
        return s;
    }
    case Kind::NoSolution:
        return "no solution";
    case Kind::InvalidPools:
        return "no solution, invalid pools";
    case Kind::Error:
        return "error: " + o.error;
    case Kind::Inconclusive:
        break;
    }
    return "inconclusive";
}

/// One pod's cycle as the laws see it: the claims it allocates (in pod order; claims allocated
/// before only restrict the node) and the nodes those allocated claims allow (§6.3).
struct PodCycle
{
    std::map<std::string, int> podsOn; ///< pods bound to each node before this one
    std::vector<std::string> allocatedBefore;
    std::vector<const api::Node*> candidates;
    std::vector<const api::ResourceClaim*> toAllocate;
};

PodCycle cycleBefore(const scheduler::Cluster& cluster, const api::Pod& pod)
{
    PodCycle c;
    std::vector<const api::NodeSelector*> selectors;
    for (const auto& e : pod.spec.resourceClaims)
        if (const auto* claim
            = e.resourceClaimName ? cluster.findClaim("default/" + *e.resourceClaimName) : nullptr;
            claim && claim->allocation) {
            c.allocatedBefore.push_back("default/" + claim->meta.name);
            if (claim->allocation->nodeSelector)
                selectors.push_back(&*claim->allocation->nodeSelector);
        }
    for (const auto* n : cluster.nodes())
        if (std::all_of(selectors.begin(), selectors.end(),
                [&](const api::NodeSelector* s) { return AllocationModel::selects(*s, *n); }))
            c.candidates.push_back(n);
    return c;
}

void claimsAfter(const scheduler::Cluster& cluster, const scheduler::ScheduleResult& r, PodCycle& c)
{
    for (const auto& k : r.claims)
        if (std::find(c.allocatedBefore.begin(), c.allocatedBefore.end(), k) == c.allocatedBefore.end())
            c.toAllocate.push_back(cluster.findClaim(k));
}

/// §6.5: Σ (8 − i) over the firstAvailable requests whose alternative i the search chose.
int64_t prioritizedListScore(
    const std::vector<const api::ResourceClaim*>& claims, const AllocationModel::Outcome& o)
{
    int64_t score = 0;
    for (size_t ci = 0; ci < claims.size(); ++ci)
        for (const auto& x : claims[ci]->spec.requests)
            for (size_t i = 0; i < x.firstAvailable.size(); ++i) {
                const std::string prefix = x.name + "/" + x.firstAvailable[i].name + " ";
                if (std::any_of(o.results[ci].begin(), o.results[ci].end(),
                        [&](const std::string& r) { return r.rfind(prefix, 0) == 0; }))
                    score += 8 - int64_t(i);
            }
    return score;
}

/// The node kube-scheduler's default scores pick among the feasible ones, for the bundles' pods
/// (no requests: LeastAllocated on the default 100m / 200Mi per pod, BalancedAllocation skipped)
/// and nodes (8 CPUs, 32Gi), plus the normalised DRA score; ties to the name sorting first.
std::string bestNode(const std::vector<std::pair<const api::Node*, int64_t>>& feasible,
    const std::map<std::string, int>& podsOn)
{
    int64_t maxDra = 0;
    for (const auto& [n, dra] : feasible)
        maxDra = std::max(maxDra, dra);
    std::string best;
    int64_t bestScore = -1;
    for (const auto& [n, dra] : feasible) {
        const auto it = podsOn.find(n->meta.name);
        const int64_t pods = (it == podsOn.end() ? 0 : it->second) + 1;
        const int64_t cpu = (8000 - 100 * pods) * 100 / 8000;
        const int64_t mem = (32 * 1024 - 200 * pods) * 100 / (32 * 1024);
        const int64_t score = (cpu + mem) / 2 + (maxDra ? dra * 100 / maxDra : 0);
        if (score > bestScore || (score == bestScore && n->meta.name < best)) {
            best = n->meta.name;
            bestScore = score;
        }
    }
    return best;
}

/// kube-scheduler's FitError text: "0/N nodes are available: <count reason>, ...." sorted as text.
std::string pendingMessage(size_t nodes, const std::map<std::string, int>& reasons)
{
    std::vector<std::string> parts;
    for (const auto& [reason, n] : reasons)
        if (n > 0)
            parts.push_back(std::to_string(n) + " " + reason);
    std::sort(parts.begin(), parts.end());
    std::string s = "0/" + std::to_string(nodes) + " nodes are available:";
    for (size_t i = 0; i < parts.size(); ++i)
        s += (i ? ", " : " ") + parts[i];
    return s + ".";
}

/// The exact law: the pod's outcome is the one upstream's search gives, node by node in name order.
/// "" when it holds (or the model could not decide).
std::string checkExact(AllocationModel& model, const scheduler::Cluster& cluster,
    const scheduler::ScheduleResult& r, const PriorState& prior, const PodCycle& cycle, Coverage& coverage)
{
    using Kind = AllocationModel::Outcome::Kind;
    const auto& claims = cycle.toAllocate;
    bool inconclusive = false, anySuccess = false;
    std::string firstError;
    AllocationModel::Outcome chosen;
    if (r.scheduled
        && std::find(cycle.candidates.begin(), cycle.candidates.end(), cluster.findNode(r.nodeName))
            == cycle.candidates.end())
        return "bound to " + r.nodeName + ", where an allocated claim of the pod is not available";
    std::vector<std::pair<const api::Node*, int64_t>> feasible; // with the DRA score
    // Why each node was turned away (§6.3, §3.15), for the pending message.
    std::map<std::string, int> reasons;
    reasons["resourceclaim not available on the node"]
        = int(cluster.nodes().size() - cycle.candidates.size());
    for (const auto* n : cycle.candidates) {
        auto o = model.firstSolution(*n, claims, prior);
        reasons["cannot allocate all claims"] += o.kind == Kind::NoSolution ? 1 : 0;
        reasons["invalid resource pools were encountered"] += o.kind == Kind::InvalidPools ? 1 : 0;
        inconclusive = inconclusive || o.kind == Kind::Inconclusive;
        anySuccess = anySuccess || o.kind == Kind::Success;
        if (o.kind == Kind::Error && firstError.empty())
            firstError = o.error;
        if (o.kind == Kind::Success)
            feasible.emplace_back(n, prioritizedListScore(claims, o));
        if (r.scheduled && n->meta.name == r.nodeName)
            chosen = std::move(o);
    }
    if (inconclusive)
        return {};
    if (r.scheduled && firstError.empty()) {
        if (const std::string best = bestNode(feasible, cycle.podsOn); best != r.nodeName)
            return "bound to " + r.nodeName + ", but " + best + " scores higher (or ties and sorts first)";
        coverage.draScoreChoices += std::any_of(feasible.begin(), feasible.end(),
            [&](const auto& f) { return f.second != feasible.front().second; });
    }
    const std::string fatal = "running \"DynamicResources\" filter plugin: ";
    if (!firstError.empty()) {
        if (r.failure != scheduler::FailureKind::AllocatorError || r.message != fatal + firstError)
            return "the exact search fails with \"" + firstError + "\", drasim says "
                + (r.scheduled ? "node " + r.nodeName : "\"" + r.message + "\"");
        ++coverage.errors;
    } else if (r.scheduled) {
        std::string got = "success:";
        for (const auto* c : claims)
            for (const auto& x : c->allocation->results)
                got += " " + x.request + " " + x.driver + "/" + x.pool + "/" + x.device;
        if (got != describe(chosen))
            return "on " + r.nodeName + " the exact search gives " + describe(chosen) + ", drasim " + got;
        // Where the devices can be used (§3.13).
        const auto* node = cluster.findNode(r.nodeName);
        for (const auto* c : claims) {
            const auto& selector = c->allocation->nodeSelector;
            if (model.nodeSelectorOf(*node, *c->allocation) != selector)
                return "claim " + c->meta.name + " on " + r.nodeName
                    + ": the node selector is not the one its devices give";
            coverage.selectorsMerged += selector && !selector->terms[0].matchExpressions.empty() ? 1 : 0;
            // The configuration the allocation carries (§3.12).
            if (const std::string bad = sameConfig(model.configOf(*c), c->allocation->config); !bad.empty())
                return "claim " + c->meta.name + ": " + bad;
            coverage.configs += c->allocation->config.empty() ? 0 : 1;
        }
    } else if (r.failure == scheduler::FailureKind::AllocatorError || anySuccess) {
        return "drasim leaves the pod pending (" + r.message + "), the exact search "
            + (anySuccess ? "finds a node" : "meets no error");
    } else if (const std::string want = pendingMessage(cluster.nodes().size(), reasons); r.message != want) {
        return "pending with \"" + r.message + "\", expected \"" + want + "\"";
    }
    ++coverage.exact;
    return {};
}

/// Runs every law on one bundle; "" when all hold.
std::string checkBundle(uint64_t seed, Coverage& coverage)
{
    const RandomBundle bundle = makeRandomBundle(seed);
    scheduler::Cluster cluster(bundle.objects);
    if (cluster.diagnostics().hasErrors())
        return "generated bundle is invalid: " + cluster.diagnostics().formatAll();
    AllocationModel model(bundle.objects);
    std::vector<scheduler::ScheduleResult> outcomes;
    std::map<std::string, int> podsOn;
    for (const auto& pod : bundle.pods) {
        const PriorState prior = PriorState::of(cluster.claims());
        PodCycle cycle = cycleBefore(cluster, pod);
        cycle.podsOn = podsOn;
        auto r = cluster.schedule(pod);
        if (r.scheduled)
            ++podsOn[r.nodeName];
        claimsAfter(cluster, r, cycle);
        coverage.sharedClaims += cycle.allocatedBefore.empty() ? 0 : 1;
        const std::string who = "pod " + pod.meta.name + ": ";
        if (const std::string bad = checkExact(model, cluster, r, prior, cycle, coverage); !bad.empty())
            return who + bad;
        if (r.scheduled) {
            const auto* node = cluster.findNode(r.nodeName);
            const std::string bad = model.check(*node, cycle.toAllocate, prior);
            if (!bad.empty())
                return who + "scheduled on " + r.nodeName + ", but " + bad;
            ++coverage.scheduled;
        } else if (r.failure == scheduler::FailureKind::Unschedulable) {
            // Unallocated again: the claims as the attempt saw them.
            bool proven = true;
            for (const auto* n : cycle.candidates) {
                const auto found = model.solve(*n, cycle.toAllocate, prior, seed);
                if (found == AllocationModel::Search::Found)
                    return who + "left pending (" + r.message + ") although " + n->meta.name
                        + " has a solution";
                proven = proven && found == AllocationModel::Search::None;
            }
            coverage.provenPending += proven ? 1 : 0;
        }
        const std::string twice = dedicatedTwice(cluster);
        if (!twice.empty())
            return who + twice;
        outcomes.push_back(std::move(r));
    }
    // explain must tell the same story as allocate, pod by pod.
    for (size_t i = 0; i < bundle.pods.size(); ++i) {
        scheduler::Cluster again(bundle.objects);
        const auto batch = scheduler::scheduleAll(again, bundle.pods, keyOf(bundle.pods[i]));
        if (!batch.diagnosis)
            return "pod " + bundle.pods[i].meta.name + ": explain gave no diagnosis";
        const auto& d = *batch.diagnosis;
        const auto& o = outcomes[i];
        if (d.scheduled != o.scheduled || d.nodeName != o.nodeName
            || (!o.scheduled && d.message != o.message))
            return "pod " + bundle.pods[i].meta.name + ": allocate says "
                + (o.scheduled ? "node " + o.nodeName : "pending: " + o.message) + ", explain says "
                + (d.scheduled ? "node " + d.nodeName : "pending: " + d.message);
    }
    return {};
}

std::string reproduceCommand(uint64_t seed)
{
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    std::ostringstream s;
    s << "DRASIM_INVARIANT_SEED=" << seed << " " << (ec ? std::string("scheduler_tests") : exe.string())
      << " --gtest_filter=AllocatorInvariants.RandomBundles";
    return s.str();
}

} // namespace

TEST(AllocatorInvariants, RandomBundles)
{
    uint64_t first = kFirstSeed;
    uint64_t count = 2000;
    if (const char* s = std::getenv("DRASIM_INVARIANT_SEED")) {
        first = std::strtoull(s, nullptr, 10);
        count = 1;
    }
    if (const char* n = std::getenv("DRASIM_INVARIANT_BUNDLES"))
        count = std::strtoull(n, nullptr, 10);
    int failures = 0;
    Coverage coverage;
    for (uint64_t seed = first; seed < first + count && failures < 5; ++seed) {
        const std::string bad = checkBundle(seed, coverage);
        if (!bad.empty()) {
            ++failures;
            ADD_FAILURE() << "seed " << seed << ": " << bad << "\n  reproduce: " << reproduceCommand(seed);
        }
    }
    if (count >= 2000) {
        EXPECT_GT(coverage.scheduled, 1000);
        EXPECT_GT(coverage.provenPending, 1000);
        EXPECT_GT(coverage.exact, 3000);
        EXPECT_GT(coverage.errors, 20);
        EXPECT_GT(coverage.selectorsMerged, 10);
        EXPECT_GT(coverage.configs, 200);
        EXPECT_GT(coverage.sharedClaims, 50);
        EXPECT_GT(coverage.draScoreChoices, 10);
    }
    std::cout << "bundles " << count << ", pods scheduled and replayed " << coverage.scheduled
              << ", pending pods proven unsolvable " << coverage.provenPending
              << ", outcomes confirmed by the exact search " << coverage.exact << " (fatal errors "
              << coverage.errors << "), node selectors from network slices " << coverage.selectorsMerged
              << ", configs " << coverage.configs << ", pods with a shared claim " << coverage.sharedClaims
              << ", choices the DRA score had a say in " << coverage.draScoreChoices << "\n";
}

// The generator must produce the situations the laws are about, or they prove little.
TEST(AllocatorInvariants, BundlesCoverTheInterestingCases)
{
    int republished = 0, admin = 0, shareable = 0, allMode = 0, constraints = 0, counters = 0;
    int distinctThree = 0; // a distinctAttribute claim with a request for three devices
    int binding = 0, invalidPools = 0, overLimit = 0, constraintOnSecond = 0, taintRules = 0;
    for (uint64_t seed = kFirstSeed; seed < kFirstSeed + 300; ++seed) {
        const auto b = makeRandomBundle(seed);
        taintRules += int(b.objects.deviceTaintRules.size());
        for (const auto& s : b.objects.resourceSlices) {
            republished += s.pool.generation > 1 ? 1 : 0;
            counters += s.sharedCounters.empty() ? 0 : 1;
            for (const auto& d : s.devices) {
                shareable += d.allowMultipleAllocations.value_or(false) ? 1 : 0;
                binding += d.bindingConditions.empty() ? 0 : 1;
            }
            // A second device slice that starts again at dev-0 repeats the first one's names.
            invalidPools += s.meta.name.size() > 2 && s.meta.name.substr(s.meta.name.size() - 2) == "-1"
                    && !s.devices.empty() && s.devices.front().name == "dev-0"
                ? 1
                : 0;
        }
        for (const auto& c : b.objects.resourceClaims) {
            constraints += c.spec.constraints.empty() ? 0 : 1;
            const bool distinct = !c.spec.constraints.empty() && c.spec.constraints[0].distinctAttribute;
            constraintOnSecond += !c.spec.constraints.empty() && c.spec.constraints[0].requests.size() == 1
                    && c.spec.constraints[0].requests[0] == "r1"
                ? 1
                : 0;
            for (const auto& r : c.spec.requests)
                if (r.exactly) {
                    admin += r.exactly->adminAccess.value_or(false) ? 1 : 0;
                    allMode += r.exactly->allocationMode == "All" ? 1 : 0;
                    distinctThree += distinct && r.exactly->count == 3 ? 1 : 0;
                    overLimit += r.exactly->count > 32 ? 1 : 0;
                }
        }
    }
    EXPECT_GT(republished, 50);
    EXPECT_GT(admin, 50);
    EXPECT_GT(shareable, 50);
    EXPECT_GT(allMode, 20);
    EXPECT_GT(constraints, 50);
    EXPECT_GT(counters, 20);
    EXPECT_GT(distinctThree, 3);
    EXPECT_GT(binding, 20);
    EXPECT_GT(invalidPools, 5);
    EXPECT_GT(overLimit, 5);
    EXPECT_GT(constraintOnSecond, 5);
    EXPECT_GT(taintRules, 30);
}
