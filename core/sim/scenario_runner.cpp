// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scenario_runner.h"

#include <map>
#include <set>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "core/topology/catalog.h"
#include "core/topology/cluster_builder.h"
#include "core/topology/shape_reader.h"
#include "core/workload/alibaba_trace.h"
#include "core/workload/workload_spec.h"
#if __has_include("core/yamlio/loader.h")
#include "core/yamlio/loader.h"
#define DRASIM_SIM_HAVE_LOADER 1
#endif

namespace drasim::sim {

namespace {

/// Splits nodes + slices into per-node specs (node order kept); slices that belong to no node
/// (network-attached devices) go to `shared`.
std::vector<NodeSpec> splitByNode(api::ObjectSet& objects, std::vector<api::ResourceSlice>& shared)
{
    std::map<std::string, size_t> index;
    std::vector<NodeSpec> out;
    for (auto& n : objects.nodes) {
        index[n.meta.name] = out.size();
        out.push_back(NodeSpec { std::move(n), {} });
    }
    for (auto& s : objects.resourceSlices) {
        auto it = s.nodeName ? index.find(*s.nodeName) : index.end();
        if (it == index.end())
            shared.push_back(std::move(s));
        else
            out[it->second].slices.push_back(std::move(s));
    }
    objects.nodes.clear();
    objects.resourceSlices.clear();
    return out;
}

class ClassSet
{
public:
    void add(std::vector<api::DeviceClass>& from, api::ObjectSet& to)
    {
        for (auto& c : from)
            if (m_names.insert(c.meta.name).second)
                to.deviceClasses.push_back(std::move(c));
        from.clear();
    }

private:
    std::set<std::string> m_names;
};

struct ShapeLookup
{
    topology::Catalog catalog;
    std::vector<topology::NodeShape> extra;
    const topology::NodeShape* find(const std::string& name) const
    {
        for (const auto& s : extra)
            if (s.name == name)
                return &s;
        return catalog.find(name);
    }
};

} // namespace

std::optional<RunSummary> runScenario(
    const Scenario& sc, const ScenarioRunOptions& options, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    const uint64_t seed = options.seed.value_or(sc.seed);
    auto failed = [&] { return diags.errorCount() > errorsBefore; };
    auto error = [&](const SourcePos& pos, const std::string& field, const std::string& message) {
        diags.error(pos, "Scenario", sc.name, field, message);
    };

    api::ObjectSet base; // what the scheduler model is built from
    ClassSet classes;
    std::vector<NodePool> pools;
    std::map<std::string, std::shared_ptr<NodePool>> laterPools; // AddNodePool events by event path
    std::set<std::string> knownNodes;
    std::shared_ptr<const topology::PlacementIndex> placement;

    // --- catalog node pools (initial and added by events) ---
    bool needCatalog = !sc.nodePools.empty();
    for (const auto& e : sc.events)
        needCatalog = needCatalog || e.type == InjectedEvent::Type::AddNodePool;
    if (needCatalog) {
        ShapeLookup shapes;
        std::string dir = sc.catalogDir.empty() ? topology::Catalog::defaultDirectory() : sc.catalogDir;
        // A broken shape the scenario does not use must not stop it: catalog problems are only
        // reported for the shapes asked for (below, when one is not found).
        Diagnostics catalogDiags(1000);
        if (!dir.empty())
            shapes.catalog = topology::Catalog::load(dir, catalogDiags);
        for (const auto& f : sc.shapeFiles) {
            auto more = topology::loadNodeShapeFile(f, diags);
            shapes.extra.insert(shapes.extra.end(), more.begin(), more.end());
        }
        std::vector<const NodePoolSpec*> specs;
        for (const auto& p : sc.nodePools)
            specs.push_back(&p);
        for (const auto& e : sc.events)
            if (e.type == InjectedEvent::Type::AddNodePool)
                specs.push_back(&e.newPool);
        topology::ClusterBuilder builder;
        std::vector<double> prices;
        for (const NodePoolSpec* p : specs) {
            const topology::NodeShape* shape = shapes.find(p->shape);
            if (!shape) {
                for (const auto& d : catalogDiags.all())
                    if (d.objectName == p->shape)
                        diags.add(d);
                std::string known;
                for (const auto& n : shapes.catalog.names())
                    known += (known.empty() ? "" : ", ") + n;
                for (const auto& s : shapes.extra)
                    known += (known.empty() ? "" : ", ") + s.name;
                error(p->pos, p->path + ".shape",
                    "Not found: \"" + p->shape + "\": no such node shape in the catalog"
                        + (dir.empty() ? std::string(" (no catalog directory found)") : " " + dir)
                        + (known.empty() ? "" : "; known shapes: " + known));
                prices.push_back(0);
                continue;
            }
            if (!builder.addPool(*shape, p->count, p->namePrefix, {}, &diags))
                error(p->pos, p->path + ".namePrefix", "node names collide with an earlier pool");
            prices.push_back(p->pricePerHour.value_or(shape->price.perHourUsd));
        }
        if (failed())
            return std::nullopt;
        api::ObjectSet built = builder.build(nullptr, options.cancel);
        classes.add(built.deviceClasses, base);
        std::vector<api::ResourceSlice> shared;
        std::vector<NodeSpec> nodes = splitByNode(built, shared);
        base.resourceSlices.insert(base.resourceSlices.end(), shared.begin(), shared.end());
        size_t next = 0;
        for (size_t i = 0; i < specs.size(); ++i) {
            auto pool = std::make_shared<NodePool>();
            pool->name = specs[i]->name;
            pool->pricePerHour = prices[i];
            for (int k = 0; k < specs[i]->count && next < nodes.size(); ++k)
                pool->nodes.push_back(std::move(nodes[next++]));
            for (const auto& n : pool->nodes)
                knownNodes.insert(n.node.meta.name);
            if (i < sc.nodePools.size())
                pools.push_back(std::move(*pool));
            else
                laterPools[specs[i]->path] = pool;
        }
        placement = builder.placementIndex();
    }

    // --- manifests (dumps, classes, templates) ---
    std::vector<std::string> manifestPaths = sc.manifests;
    manifestPaths.insert(manifestPaths.end(), sc.resources.begin(), sc.resources.end());
    if (!manifestPaths.empty()) {
#ifdef DRASIM_SIM_HAVE_LOADER
        yamlio::LoadResult loaded = yamlio::loadPaths(manifestPaths);
        diags.append(loaded.diagnostics);
        if (loaded.diagnostics.hasErrors())
            return std::nullopt;
        api::ObjectSet& objs = loaded.objects;
        classes.add(objs.deviceClasses, base);
        base.resourceClaims.insert(
            base.resourceClaims.end(), objs.resourceClaims.begin(), objs.resourceClaims.end());
        base.resourceClaimTemplates.insert(base.resourceClaimTemplates.end(),
            objs.resourceClaimTemplates.begin(), objs.resourceClaimTemplates.end());
        // Pods already bound in a dump keep their devices for the whole run; unbound ones are
        // not workloads (those belong under spec.workloads).
        for (auto& pod : objs.pods) {
            if (!pod.spec.nodeName.empty())
                base.pods.push_back(std::move(pod));
            else
                diags.warning(pod.meta.pos, "Pod", pod.meta.key(), "spec.nodeName",
                    "unbound pod in cluster manifests is ignored; list workloads under spec.workloads");
        }
        std::vector<api::ResourceSlice> shared;
        NodePool manifestPool;
        manifestPool.name = "manifests";
        manifestPool.preloaded = true;
        manifestPool.nodes = splitByNode(objs, shared);
        base.resourceSlices.insert(base.resourceSlices.end(), shared.begin(), shared.end());
        for (const auto& n : manifestPool.nodes) {
            knownNodes.insert(n.node.meta.name);
            base.nodes.push_back(n.node);
            base.resourceSlices.insert(base.resourceSlices.end(), n.slices.begin(), n.slices.end());
        }
        if (!manifestPool.nodes.empty())
            pools.push_back(std::move(manifestPool));
#else
        error(sc.pos, "spec.cluster.manifests", "manifest loading is not available in this build");
        return std::nullopt;
#endif
    }

    // --- Alibaba trace nodes ---
    if (sc.traceCluster) {
        auto objs = workload::loadTraceCluster(*sc.traceCluster, diags);
        if (!objs)
            return std::nullopt;
        classes.add(objs->deviceClasses, base);
        std::vector<api::ResourceSlice> shared;
        NodePool tracePool;
        tracePool.name = "trace";
        tracePool.nodes = splitByNode(*objs, shared);
        base.resourceSlices.insert(base.resourceSlices.end(), shared.begin(), shared.end());
        for (const auto& n : tracePool.nodes)
            knownNodes.insert(n.node.meta.name);
        pools.push_back(std::move(tracePool));
    }

    // --- events refer to nodes and pools that exist ---
    std::set<std::string> poolNames;
    for (const auto& p : sc.nodePools)
        poolNames.insert(p.name);
    for (const auto& e : sc.events) {
        if (e.type == InjectedEvent::Type::AddNodePool)
            poolNames.insert(e.newPool.name);
        bool nodeEvent
            = e.type != InjectedEvent::Type::AddNodePool && e.type != InjectedEvent::Type::RemoveNodePool;
        if (nodeEvent && !knownNodes.count(e.node))
            error(e.pos, e.path + ".node",
                "Not found: \"" + e.node + "\": no node of that name in the cluster");
        if (e.type == InjectedEvent::Type::RemoveNodePool && !poolNames.count(e.poolName))
            error(e.pos, e.path + ".name", "Not found: \"" + e.poolName + "\": no node pool of that name");
    }
    if (failed())
        return std::nullopt;

    // --- workloads: claim templates must be known when the scheduler model is built ---
    // scheduler::Cluster takes its templates at construction, and the workload stream carries
    // them with the jobs ("ensure it exists"). Streams are deterministic, so a first pass over an
    // identical stream collects them without holding the jobs in memory.
    {
        auto scan = workload::makeScenarioSource(sc.workloads, seed, diags);
        if (!scan)
            return std::nullopt;
        std::set<std::string> have;
        for (const auto& t : base.resourceClaimTemplates)
            have.insert(t.meta.key());
        // Pre-created (shared) ResourceClaims that workload pods name directly join the same way.
        std::set<std::string> haveClaims;
        for (const auto& c : base.resourceClaims)
            haveClaims.insert(c.meta.key());
        while (auto job = scan->next()) {
            if (fromSeconds(job->arrivalSeconds) > sc.duration)
                break; // arrivals are ordered: nothing later is simulated
            for (auto& t : job->claimTemplates)
                if (have.insert(t.meta.key()).second)
                    base.resourceClaimTemplates.push_back(std::move(t));
            for (auto& c : job->claims)
                if (haveClaims.insert(c.meta.key()).second)
                    base.resourceClaims.push_back(std::move(c));
            if (options.cancel && options.cancel->cancelled())
                return std::nullopt;
        }
        if (failed())
            return std::nullopt;
    }

    // Initial nodes go into the model's constructor: adding them one by one would rebuild the
    // scheduler's inventory per node (quadratic in the node count).
    for (auto& pool : pools) {
        if (pool.preloaded)
            continue; // already in base
        pool.preloaded = true;
        for (const auto& n : pool.nodes) {
            base.nodes.push_back(n.node);
            base.resourceSlices.insert(base.resourceSlices.end(), n.slices.begin(), n.slices.end());
        }
    }

    scheduler::SchedulerOptions schedOptions;
    schedOptions.scoring
        = scheduler::parseScoringPolicy(sc.scoring).value_or(scheduler::ScoringPolicy::Default);
    schedOptions.seed = seed;
    scheduler::Cluster cluster(std::move(base), schedOptions);
    if (cluster.diagnostics().hasErrors()) {
        diags.append(cluster.diagnostics());
        return std::nullopt;
    }
    SchedulerClusterPort port(cluster, placement);

    SimOptions simOptions;
    simOptions.scenarioName = sc.name;
    simOptions.scenarioFile = sc.file;
    simOptions.seed = seed;
    simOptions.duration = sc.duration;
    simOptions.metricInterval = sc.metricInterval;
    simOptions.podInitialBackoff = sc.podInitialBackoff;
    simOptions.podMaxBackoff = sc.podMaxBackoff;
    simOptions.podEvents = options.podEvents;
    Simulator sim(port, simOptions);
    for (const auto& p : pools)
        sim.addNodePool(p);
    for (const auto& e : sc.events) {
        InjectedEvent ie;
        ie.at = e.at;
        ie.type = e.type;
        ie.node = e.node;
        ie.driver = e.driver;
        ie.device = e.device;
        ie.taint = e.taint;
        ie.pool = e.poolName;
        if (e.type == InjectedEvent::Type::AddNodePool)
            ie.newPool = laterPools[e.newPool.path];
        sim.addEvent(std::move(ie));
    }
    auto source = workload::makeScenarioSource(sc.workloads, seed, diags);
    if (!source)
        return std::nullopt;
    sim.setArrivals(std::move(source));
    for (auto* r : options.recorders)
        sim.addRecorder(r);
    RunSummary summary = sim.run(options.progress, options.cancel);
    if (failed())
        return std::nullopt; // a workload stream reported a bad row while running
    return summary;
}

} // namespace drasim::sim
