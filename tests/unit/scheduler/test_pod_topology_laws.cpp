// SPDX-License-Identifier: Apache-2.0
// Laws upstream promises of PodTopologySpread and InterPodAffinity, over random clusters and
// pods: a DoNotSchedule constraint never lets the skew among eligible domains exceed maxSkew, a
// required anti-affinity term is never violated (whichever of the two pods came first), a required
// affinity term always has a selected pod in the domain (or the pod was the first of its kind),
// and pods without such rules are placed as they were before either plugin existed.
#include <algorithm>
#include <climits>
#include <optional>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace pod_topology_laws {

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";
const char* const kApps[] = { "web", "db", "cache" };

struct World
{
    api::ObjectSet objects;
    std::map<std::string, std::string> zoneOf; ///< node -> zone
};

World randomWorld(std::mt19937& rng)
{
    World w;
    const int nodes = 2 + int(rng() % 9);
    const int zones = 1 + int(rng() % 4);
    for (int i = 0; i < nodes; ++i) {
        const std::string name = numbered("n", i), zone = "z" + std::to_string(rng() % zones);
        w.zoneOf[name] = zone;
        w.objects.nodes.push_back(
            node(name, { { kHost, name }, { kZone, zone } }, std::to_string(2 + rng() % 6)));
    }
    return w;
}

api::Pod randomPod(std::mt19937& rng, int i, const std::string& app)
{
    api::Pod p = pod("p" + std::to_string(i));
    p.meta.labels = { { "app", app } };
    p.spec.containers[0].resources.requests["cpu"] = q(std::to_string(1 + rng() % 2));
    return p;
}

api::LabelSelector appSelector(const std::string& app)
{
    api::LabelSelector s;
    s.matchLabels = { { "app", app } };
    return s;
}

// After every binding, the counts of app=web pods per zone differ by at most maxSkew: each
// placement keeps count + 1 − min ≤ maxSkew in its zone and only raises counts.
TEST(PodTopologyLaws, DoNotScheduleNeverExceedsMaxSkewAmongEligibleDomains)
{
    for (uint32_t seed = 1; seed <= 40; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        std::set<std::string> zones;
        for (const auto& [n, z] : w.zoneOf)
            zones.insert(z);
        Cluster c(w.objects);
        const int32_t maxSkew = 1 + int32_t(rng() % 2);
        std::map<std::string, int> perZone;
        for (const auto& z : zones)
            perZone[z] = 0;
        for (int i = 0; i < 30; ++i) {
            api::Pod p = randomPod(rng, i, "web");
            api::TopologySpreadConstraint sc;
            sc.topologyKey = kZone;
            sc.maxSkew = maxSkew;
            sc.labelSelector = appSelector("web");
            p.spec.topologySpreadConstraints = { sc };
            auto r = c.schedule(p);
            if (!r.scheduled)
                continue;
            ++perZone[w.zoneOf.at(r.nodeName)];
            int lo = INT32_MAX, hi = 0;
            for (const auto& [z, n] : perZone)
                lo = std::min(lo, n), hi = std::max(hi, n);
            ASSERT_LE(hi - lo, maxSkew) << "seed " << seed << " pod " << i;
        }
    }
}

bool violates(const api::PodAffinityTerm& t, const std::string& aNode, const std::string& bNode,
    const std::string& bApp, const World& w)
{
    if (!t.labelSelector || t.labelSelector->matchLabels.at("app") != bApp)
        return false;
    if (t.topologyKey == kHost)
        return aNode == bNode;
    return w.zoneOf.at(aNode) == w.zoneOf.at(bNode);
}

// Pods with random required anti-affinity terms (hostname or zone, against a random app) and
// pods without: no two bound pods ever break a term of either.
TEST(PodTopologyLaws, RequiredAntiAffinityIsNeverViolated)
{
    for (uint32_t seed = 1; seed <= 40; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        Cluster c(w.objects);
        struct Placed
        {
            std::string node, app;
            std::optional<api::PodAffinityRules> anti;
        };
        std::vector<Placed> placed;
        for (int i = 0; i < 25; ++i) {
            api::Pod p = randomPod(rng, i, kApps[rng() % 3]);
            if (rng() % 2) {
                api::PodAffinityTerm t;
                t.topologyKey = rng() % 2 ? kHost : kZone;
                t.labelSelector = appSelector(kApps[rng() % 3]);
                p.spec.podAntiAffinity = api::PodAffinityRules { { t }, {} };
            }
            auto r = c.schedule(p);
            if (r.scheduled)
                placed.push_back({ r.nodeName, p.meta.labels.at("app"), p.spec.podAntiAffinity });
        }
        for (size_t a = 0; a < placed.size(); ++a)
            for (size_t b = 0; b < placed.size(); ++b) {
                if (a == b || !placed[a].anti)
                    continue;
                for (const auto& t : placed[a].anti->required)
                    ASSERT_FALSE(violates(t, placed[a].node, placed[b].node, placed[b].app, w))
                        << "seed " << seed << ": pods " << a << " and " << b;
            }
    }
}

// A pod bound with a required affinity term has a pod of the selected app in its domain, unless
// no such pod was running when it was placed and it selects itself.
TEST(PodTopologyLaws, RequiredAffinityAlwaysFindsItsPodsInTheDomain)
{
    for (uint32_t seed = 1; seed <= 40; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        Cluster c(w.objects);
        std::vector<std::pair<std::string, std::string>> placed; // node, app
        for (int i = 0; i < 25; ++i) {
            const std::string app = kApps[rng() % 3];
            api::Pod p = randomPod(rng, i, app);
            std::string wanted;
            api::PodAffinityTerm t;
            if (rng() % 2) {
                wanted = kApps[rng() % 3];
                t.topologyKey = rng() % 2 ? kHost : kZone;
                t.labelSelector = appSelector(wanted);
                p.spec.podAffinity = api::PodAffinityRules { { t }, {} };
            }
            const bool anyWanted = std::any_of(
                placed.begin(), placed.end(), [&](const auto& pl) { return pl.second == wanted; });
            auto r = c.schedule(p);
            if (!r.scheduled) {
                // Only a pod whose selected pods run nowhere and which does not select itself may
                // fail on affinity alone; capacity may fail any pod.
                continue;
            }
            if (!wanted.empty()) {
                const bool near = std::any_of(placed.begin(), placed.end(), [&](const auto& pl) {
                    return pl.second == wanted
                        && (t.topologyKey == kHost ? pl.first == r.nodeName
                                                   : w.zoneOf.at(pl.first) == w.zoneOf.at(r.nodeName));
                });
                EXPECT_TRUE(near || (!anyWanted && wanted == app)) << "seed " << seed << " pod " << i;
            }
            placed.emplace_back(r.nodeName, app);
        }
    }
}

// Labels alone change nothing: a cluster whose pods carry labels but no spread constraints or pod
// affinity places every pod where the same pods without labels go.
TEST(PodTopologyLaws, PodsWithoutRulesArePlacedAsWithoutLabels)
{
    for (uint32_t seed = 1; seed <= 30; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        Cluster labelled(w.objects), bare(w.objects);
        for (int i = 0; i < 30; ++i) {
            api::Pod p = randomPod(rng, i, kApps[rng() % 3]);
            auto a = labelled.schedule(p);
            p.meta.labels.clear();
            auto b = bare.schedule(p);
            ASSERT_EQ(a.scheduled, b.scheduled) << "seed " << seed;
            ASSERT_EQ(a.nodeName, b.nodeName) << "seed " << seed;
            ASSERT_EQ(a.message, b.message) << "seed " << seed;
        }
    }
}

// Two ways to name the same set must agree: pods that a Service selects by app are spread by the
// system defaults exactly as the same pods owned by a ReplicaSet with that selector.
TEST(PodTopologyLaws, AServiceSpreadsItsPodsAsAReplicaSetOfTheSameSelector)
{
    for (uint32_t seed = 1; seed <= 30; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        api::ObjectSet bySelector = w.objects, byOwner = w.objects;
        for (const char* app : kApps) {
            api::Service s;
            s.meta.namespace_ = "default";
            s.meta.name = app;
            s.selector = { { "app", app } };
            bySelector.services.push_back(s);
            api::PodController rs;
            rs.kind = api::PodController::Kind::ReplicaSet;
            rs.meta.namespace_ = "default";
            rs.meta.name = app;
            rs.selector = appSelector(app);
            byOwner.controllers.push_back(rs);
        }
        Cluster services(std::move(bySelector)), owners(std::move(byOwner));
        for (int i = 0; i < 30; ++i) {
            const std::string app = kApps[rng() % 3];
            api::Pod p = randomPod(rng, i, app);
            auto a = services.schedule(p);
            p.meta.ownerReferences.push_back(api::OwnerReference { "apps/v1", "ReplicaSet", app, "", true });
            auto b = owners.schedule(p);
            ASSERT_EQ(a.scheduled, b.scheduled) << "seed " << seed;
            ASSERT_EQ(a.nodeName, b.nodeName) << "seed " << seed << " pod " << i;
        }
    }
}

// The scheduler keeps each spread selector's matching pods per node as pods come, go, start
// terminating and are rolled back. Two paths must agree: after a random history, a probe pod with
// spread constraints goes where it goes on a cluster built fresh from the pods still running
// (terminating ones loaded without their node count, as they do not count).
TEST(PodTopologyLaws, RememberedSpreadCountsAgreeWithAFreshCount)
{
    for (uint32_t seed = 1; seed <= 30; ++seed) {
        std::mt19937 rng(seed);
        World w = randomWorld(rng);
        Cluster c(w.objects);
        std::map<std::string, api::Pod> running; // key -> pod with nodeName
        std::set<std::string> terminating;
        auto probe = [&](int i) {
            api::Pod p = randomPod(rng, 1000 + i, "web");
            api::TopologySpreadConstraint hard, soft;
            hard.topologyKey = kZone;
            hard.maxSkew = 1 + int32_t(rng() % 2);
            hard.labelSelector = appSelector("web");
            soft.topologyKey = kHost;
            soft.maxSkew = 1;
            soft.doNotSchedule = false;
            soft.labelSelector = appSelector(rng() % 2 ? "web" : "db");
            p.spec.topologySpreadConstraints = { hard, soft };
            return p;
        };
        for (int i = 0; i < 40; ++i) {
            const int action = int(rng() % 10);
            if (action < 5 || running.empty()) {
                const bool rollback = action == 4;
                if (rollback)
                    c.beginTransaction();
                api::Pod p = rng() % 2 ? probe(i) : randomPod(rng, i, kApps[rng() % 3]);
                auto r = c.schedule(p);
                if (rollback)
                    c.rollbackTransaction();
                else if (r.scheduled) {
                    p.spec.nodeName = r.nodeName;
                    running["default/" + p.meta.name] = p;
                }
            } else {
                auto it = std::next(running.begin(), long(rng() % running.size()));
                if (action < 8 && !terminating.count(it->first)) {
                    ASSERT_TRUE(c.markTerminating(it->first));
                    terminating.insert(it->first);
                } else {
                    ASSERT_TRUE(c.podFinished(it->first));
                    terminating.erase(it->first);
                    running.erase(it);
                }
            }
        }
        // The fresh cluster: the same nodes, the running pods bound where they are; terminating
        // pods are left out, as spread counts skip them (their cpu does not matter: the probe
        // asks for little and the comparison is of spread verdicts on feasible nodes).
        api::ObjectSet fresh = w.objects;
        for (const auto& [key, p] : running)
            if (!terminating.count(key))
                fresh.pods.push_back(p);
        Cluster rebuilt(fresh);
        for (int k = 0; k < 3; ++k) {
            api::Pod p = probe(100 + k);
            p.spec.containers[0].resources.requests.clear();
            auto a = c.schedule(p, true);
            auto b = rebuilt.schedule(p, true);
            if (!a.scheduled || !b.scheduled)
                continue;
            for (size_t n = 0; n < a.diagnosis->nodes.size(); ++n) {
                const auto& ra = a.diagnosis->nodes[n].nodeReasons;
                const auto& rb = b.diagnosis->nodes[n].nodeReasons;
                auto spread = [](const std::vector<std::string>& r) {
                    return !r.empty() && r[0].rfind("node(s) didn't match pod topology", 0) == 0;
                };
                // Terminating pods still hold their cpu here, not there: compare only the nodes
                // that no other filter rejects in either cluster.
                if ((!ra.empty() && !spread(ra)) || (!rb.empty() && !spread(rb)))
                    continue;
                ASSERT_EQ(spread(ra), spread(rb))
                    << "seed " << seed << " node " << a.diagnosis->nodes[n].node;
            }
            // Bind the probe in both, so the next one reads counts that include it.
            c.podFinished("default/" + p.meta.name);
            rebuilt.podFinished("default/" + p.meta.name);
        }
    }
}

} // namespace pod_topology_laws
