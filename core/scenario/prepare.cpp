// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/prepare.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/api/dra_field_gates.h"
#include "core/common/parallel_chunks.h"
#include "core/common/sha256.h"
#include "core/scenario/named_files_check.h"
#include "core/scenario/scenario_writer.h"
#include "core/scheduler/cluster.h"
#include "core/sim/workload_claims.h"
#include "core/sim/workload_objects.h"
#include "core/topology/catalog.h"
#include "core/topology/cluster_builder.h"
#include "core/topology/shape_reader.h"
#include "core/workload/alibaba_trace.h"
#include "core/yamlio/loader.h"

namespace drasim::scenario {

namespace {

using sim::InjectedEvent;
using sim::NodePool;
using sim::NodeSpec;

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

struct ShapeLookup
{
    std::shared_ptr<const LoadedCatalog> loaded;
    std::vector<topology::NodeShape> extra;
    const topology::NodeShape* find(const std::string& name) const
    {
        for (const auto& s : extra)
            if (s.name == name)
                return &s;
        return loaded->catalog.find(name);
    }
    /// Every shape it can find, for the device models they define.
    std::vector<const topology::NodeShape*> all() const
    {
        std::vector<const topology::NodeShape*> out;
        for (const auto& s : loaded->catalog.shapes())
            out.push_back(&s);
        for (const auto& s : extra)
            out.push_back(&s);
        return out;
    }
    std::string knownNames() const
    {
        std::string known;
        for (const auto& n : loaded->catalog.names())
            known += (known.empty() ? "" : ", ") + n;
        for (const auto& s : extra)
            known += (known.empty() ? "" : ", ") + s.name;
        return known;
    }
};

/// The cluster being assembled, phase by phase, in the order the scheduler model sees it.
class Assembly
{
public:
    Assembly(const Scenario& sc, Diagnostics& diags)
        : sc(sc)
        , diags(diags)
        , m_errorsBefore(diags.errorCount())
    { }

    const Scenario& sc;
    Diagnostics& diags;
    api::ObjectSet base;
    std::vector<NodePool> pools;
    std::map<std::string, std::shared_ptr<NodePool>> laterPools; ///< AddNodePool events by event path
    std::set<std::string> knownNodes;
    std::shared_ptr<const topology::PlacementIndex> placement;
    /// Events whose target is missing, left out (PrepareOptions::skipEventsWithoutTarget).
    std::set<const ScenarioEvent*> skipped;
    std::vector<std::string> skippedNotes;

    bool failed() const { return diags.errorCount() > m_errorsBefore; }
    void error(const SourcePos& pos, const std::string& field, const std::string& message)
    {
        diags.error(pos, "Scenario", sc.name, field, message);
    }
    /// DeviceClasses: the first of a name wins (catalog, then manifests, then trace).
    void addClasses(std::vector<api::DeviceClass>& from)
    {
        for (auto& c : from)
            if (m_classNames.insert(c.meta.name).second)
                base.deviceClasses.push_back(std::move(c));
        from.clear();
    }
    /// A pool of nodes split from `objs`; shared slices join the base.
    NodePool takePool(const std::string& name, api::ObjectSet& objs)
    {
        std::vector<api::ResourceSlice> shared;
        NodePool pool;
        pool.name = name;
        pool.nodes = splitByNode(objs, shared);
        base.resourceSlices.insert(base.resourceSlices.end(), shared.begin(), shared.end());
        for (const auto& n : pool.nodes)
            knownNodes.insert(n.node.meta.name);
        return pool;
    }

private:
    size_t m_errorsBefore;
    std::set<std::string> m_classNames;
};

/// The scenario with the pool overrides applied (what is prepared and hashed); unknown names are
/// errors.
bool applyPoolOverrides(
    Scenario& sc, const std::map<std::string, PoolOverride>& overrides, Diagnostics& diags)
{
    bool ok = true;
    for (const auto& [name, o] : overrides) {
        auto it = std::find_if(
            sc.nodePools.begin(), sc.nodePools.end(), [&](const NodePoolSpec& p) { return p.name == name; });
        if (it == sc.nodePools.end()) {
            diags.error(sc.pos, "Scenario", sc.name, "spec.cluster.nodePools",
                "Not found: \"" + name + "\": no node pool of that name");
            ok = false;
            continue;
        }
        if (o.count)
            it->count = *o.count;
        if (o.shape)
            it->shape = *o.shape;
    }
    return ok;
}

ShapeLookup loadShapes(Assembly& a, const PrepareOptions& options)
{
    ShapeLookup shapes;
    shapes.loaded = options.catalog ? options.catalog : loadScenarioCatalog(a.sc);
    for (const auto& f : a.sc.shapeFiles) {
        auto more = topology::loadNodeShapeFile(a.sc.resolvedPath(f), a.diags);
        shapes.extra.insert(shapes.extra.end(), more.begin(), more.end());
    }
    return shapes;
}

/// The API server's dropDisabledFields for the ResourceSlices a pool's shape generates: they are
/// made without the loader (which clears gated fields as it reads them), so the same table
/// (core/api/dra_field_gates.h) clears them here. One warning per gate that cleared something.
void dropDisabledFields(
    Assembly& a, const SourcePos& pos, const std::string& field, std::vector<api::ResourceSlice*> slices)
{
    std::map<std::string, std::set<std::string>> byGate;
    for (api::ResourceSlice* s : slices)
        for (auto& [gate, path] : api::dropDisabledSliceFields(*s, a.sc.featureGates))
            byGate[gate].insert(path);
    for (const auto& [gate, paths] : byGate) {
        std::string list;
        for (const auto& path : paths)
            list += (list.empty() ? "" : ", ") + path;
        a.diags.warning(pos, "Scenario", a.sc.name, field,
            "dropped: feature gate " + gate + " is disabled, so the API server clears " + list
                + " of the generated ResourceSlices");
    }
}

/// Catalog node pools: the initial ones and those AddNodePool events bring.
bool addCatalogPools(Assembly& a, const PrepareOptions& options)
{
    const std::vector<NodePoolSpec>& initial = a.sc.nodePools;
    std::vector<const NodePoolSpec*> specs;
    for (const auto& p : initial)
        specs.push_back(&p);
    for (const auto& e : a.sc.events)
        if (e.type == InjectedEvent::Type::AddNodePool)
            specs.push_back(&e.newPool);
    if (specs.empty() && a.sc.failuresByDeviceModel.empty())
        return true;
    // A broken shape the scenario does not use must not stop it: catalog problems are only
    // reported for the shapes asked for (below, when one is not found).
    ShapeLookup shapes = loadShapes(a, options);
    if (!checkDeviceModelsKnown(a.sc.failuresByDeviceModel, shapes.all(), a.diags, "Scenario", a.sc.name))
        return false;
    if (specs.empty())
        return true;
    const std::string& dir = shapes.loaded->directory;
    topology::ClusterBuilder builder;
    std::vector<double> prices;
    std::vector<sim::PoolFailures> failures;
    for (const NodePoolSpec* p : specs) {
        const topology::NodeShape* shape = shapes.find(p->shape);
        // Failures are drawn for the nodes present from the start: not for a later pool's.
        const bool initialPool = failures.size() < initial.size();
        failures.push_back(shape && initialPool
                ? poolFailuresWithModels(p->failures, *shape, a.sc.failuresByDeviceModel)
                : p->failures);
        if (!shape) {
            for (const auto& d : shapes.loaded->problems.all())
                if (d.objectName == p->shape)
                    a.diags.add(d);
            std::string known = shapes.knownNames();
            a.error(p->pos, p->path + ".shape",
                "Not found: \"" + p->shape + "\": no such node shape in the catalog"
                    + (dir.empty() ? std::string(" (no catalog directory found)") : " " + dir)
                    + (known.empty() ? "" : "; known shapes: " + known));
            prices.push_back(0);
            continue;
        }
        if (const std::string why = topology::rackLayoutError(*shape, p->layout, p->namePrefix, p->count);
            !why.empty())
            a.error(p->pos, p->path + ".layout", why);
        else if (!builder.addPool(*shape, p->count, p->namePrefix, {}, &a.diags, p->layout))
            a.error(p->pos, p->path + ".namePrefix", "node names collide with an earlier pool");
        prices.push_back(p->pricePerHour.value_or(shape->price.perHourUsd));
    }
    if (a.failed())
        return false;
    api::ObjectSet built = builder.build(nullptr, options.cancel, options.threads);
    if (options.cancel && options.cancel->cancelled())
        return false; // a partial build would make event targets look missing
    a.addClasses(built.deviceClasses);
    std::vector<api::ResourceSlice> shared;
    std::vector<NodeSpec> nodes = splitByNode(built, shared);
    std::vector<api::ResourceSlice*> sharedSlices;
    for (auto& s : shared)
        sharedSlices.push_back(&s);
    dropDisabledFields(a, a.sc.pos, "spec.cluster.nodePools", sharedSlices);
    a.base.resourceSlices.insert(a.base.resourceSlices.end(), shared.begin(), shared.end());
    size_t next = 0;
    for (size_t i = 0; i < specs.size(); ++i) {
        auto pool = std::make_shared<NodePool>();
        pool->name = specs[i]->name;
        pool->pricePerHour = prices[i];
        pool->failures = std::move(failures[i]);
        for (int k = 0; k < specs[i]->count && next < nodes.size(); ++k)
            pool->nodes.push_back(std::move(nodes[next++]));
        std::vector<api::ResourceSlice*> slices;
        for (auto& n : pool->nodes)
            for (auto& s : n.slices)
                slices.push_back(&s);
        dropDisabledFields(a, specs[i]->pos, specs[i]->path + ".shape", slices);
        for (const auto& n : pool->nodes)
            a.knownNodes.insert(n.node.meta.name);
        if (i < initial.size())
            a.pools.push_back(std::move(*pool));
        else
            a.laterPools[specs[i]->path] = pool;
    }
    a.placement = builder.placementIndex();
    return true;
}

/// Manifests and resources: dumps, classes, claims, templates, bound pods, their nodes.
bool addManifests(Assembly& a)
{
    std::vector<std::string> paths;
    for (const auto& p : a.sc.manifests)
        paths.push_back(a.sc.resolvedPath(p));
    for (const auto& p : a.sc.resources)
        paths.push_back(a.sc.resolvedPath(p));
    if (paths.empty())
        return true;
    yamlio::LoadOptions options;
    options.gates = a.sc.featureGates;
    yamlio::LoadResult loaded = yamlio::loadPaths(paths, options);
    a.diags.append(loaded.diagnostics);
    if (loaded.diagnostics.hasErrors())
        return false;
    api::ObjectSet& objs = loaded.objects;
    api::ObjectSet& base = a.base;
    a.addClasses(objs.deviceClasses);
    base.resourceClaims.insert(
        base.resourceClaims.end(), objs.resourceClaims.begin(), objs.resourceClaims.end());
    base.resourceClaimTemplates.insert(base.resourceClaimTemplates.end(), objs.resourceClaimTemplates.begin(),
        objs.resourceClaimTemplates.end());
    // Priority classes and the scheduling.k8s.io groups the workloads' pods name.
    auto moveInto = [](auto& to, auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    moveInto(base.priorityClasses, objs.priorityClasses);
    moveInto(base.workloads, objs.workloads);
    moveInto(base.compositePodGroups, objs.compositePodGroups);
    moveInto(base.podGroups, objs.podGroups);
    // The budgets preemption honours.
    moveInto(base.podDisruptionBudgets, objs.podDisruptionBudgets);
    // The Services whose selectors PodTopologySpread's system defaults spread over.
    moveInto(base.services, objs.services);
    // Pods already bound in a dump keep their devices for the whole run; unbound ones are
    // not workloads (those belong under spec.workloads).
    for (auto& pod : objs.pods) {
        if (!pod.spec.nodeName.empty())
            base.pods.push_back(std::move(pod));
        else
            a.diags.warning(pod.meta.pos, "Pod", pod.meta.key(), "spec.nodeName",
                "unbound pod in cluster manifests is ignored; list workloads under spec.workloads");
    }
    NodePool pool = a.takePool("manifests", objs);
    pool.preloaded = true; // the nodes join the base right away
    for (const auto& n : pool.nodes) {
        base.nodes.push_back(n.node);
        base.resourceSlices.insert(base.resourceSlices.end(), n.slices.begin(), n.slices.end());
    }
    if (!pool.nodes.empty())
        a.pools.push_back(std::move(pool));
    return true;
}

/// The trace's node list path, joined the way workload paths are (workload_spec_yaml.h).
std::string traceNodesPath(const Scenario& sc, const std::string& written)
{
    if (written.empty() || written.front() == '/' || sc.baseDir.empty())
        return written;
    return sc.baseDir.back() == '/' ? sc.baseDir + written : sc.baseDir + "/" + written;
}

/// Alibaba trace nodes.
bool addTraceNodes(Assembly& a)
{
    if (!a.sc.traceCluster)
        return true;
    workload::TraceClusterSpec spec = *a.sc.traceCluster;
    spec.nodesPath = traceNodesPath(a.sc, spec.nodesPath);
    auto objs = workload::loadTraceCluster(spec, a.diags);
    if (!objs)
        return false;
    a.addClasses(objs->deviceClasses);
    a.pools.push_back(a.takePool("trace", *objs));
    return true;
}

/// A PodGroupMinCount event names a workload of the scenario whose Jobs may be gangs: one with a
/// basic `scheduling:` has no minCount to change. (A workload of manifests without `scheduling:`
/// may hold Jobs with their own spec.scheduling; the event changes those that are gangs.)
void checkMinCountTarget(Assembly& a, const ScenarioEvent& e)
{
    const auto it = std::find_if(a.sc.workloads.begin(), a.sc.workloads.end(),
        [&](const workload::WorkloadSpec& w) { return w.name == e.workload; });
    if (it == a.sc.workloads.end())
        a.error(e.pos, e.path + ".workload",
            "Not found: \"" + e.workload + "\": no workload of that name in spec.workloads");
    else if (it->scheduling && !it->scheduling->gang)
        a.error(e.pos, e.path + ".workload",
            "Invalid value: \"" + e.workload
                + "\": its scheduling policy is basic; only a gang policy has a minCount");
}

/// Events refer to nodes and pools that exist; with `skipMissing` (a planner's mix) one that does
/// not is left out with a note instead.
bool checkEventTargets(Assembly& a, bool skipMissing)
{
    auto missing = [&](const ScenarioEvent& e, const std::string& field, const std::string& message) {
        if (!skipMissing) {
            a.error(e.pos, e.path + field, message);
            return;
        }
        a.skipped.insert(&e);
        a.skippedNotes.push_back(e.path + ": " + sim::injectedEventTypeName(e.type) + " skipped: " + message);
    };
    std::set<std::string> poolNames;
    for (const auto& p : a.sc.nodePools)
        poolNames.insert(p.name);
    for (const auto& e : a.sc.events) {
        if (e.type == InjectedEvent::Type::AddNodePool)
            poolNames.insert(e.newPool.name);
        if (e.type == InjectedEvent::Type::PodGroupMinCount) {
            checkMinCountTarget(a, e);
            continue;
        }
        bool nodeEvent = e.type != InjectedEvent::Type::AddNodePool
            && e.type != InjectedEvent::Type::RemoveNodePool && e.type != InjectedEvent::Type::DeviceTaintRule
            && e.type != InjectedEvent::Type::DeviceTaintRuleDelete;
        if (nodeEvent && !a.knownNodes.count(e.node))
            missing(e, ".node", "Not found: \"" + e.node + "\": no node of that name in the cluster");
        if (e.type == InjectedEvent::Type::RemoveNodePool && !poolNames.count(e.poolName))
            missing(e, ".name", "Not found: \"" + e.poolName + "\": no node pool of that name");
    }
    return !a.failed();
}

/// Initial nodes go into the model's constructor: adding them one by one would rebuild the
/// scheduler's inventory per node (quadratic in the node count). The pools keep their own copy
/// (metrics, pool views); for thousands of nodes copying is a large share of preparing, so it is
/// spread over `threads` (each node lands in its own slots: the result does not depend on them).
void preloadPoolNodes(Assembly& a, unsigned threads)
{
    std::vector<const NodeSpec*> specs;
    std::vector<size_t> firstSlice; // of each node, counted from the first slice added here
    size_t sliceCount = 0;
    for (auto& pool : a.pools) {
        if (pool.preloaded)
            continue; // already in base
        pool.preloaded = true;
        for (const auto& n : pool.nodes) {
            specs.push_back(&n);
            firstSlice.push_back(sliceCount);
            sliceCount += n.slices.size();
        }
    }
    const size_t nodesAt = a.base.nodes.size();
    const size_t slicesAt = a.base.resourceSlices.size();
    a.base.nodes.resize(nodesAt + specs.size());
    a.base.resourceSlices.resize(slicesAt + sliceCount);
    constexpr size_t kMinNodesPerThread = 64;
    forEachChunk(specs.size(), chunkCount(specs.size(), threads, kMinNodesPerThread),
        [&](unsigned, size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                a.base.nodes[nodesAt + i] = specs[i]->node;
                std::copy(specs[i]->slices.begin(), specs[i]->slices.end(),
                    a.base.resourceSlices.begin() + std::ptrdiff_t(slicesAt + firstSlice[i]));
            }
        });
}

std::vector<InjectedEvent> injectedEvents(Assembly& a)
{
    std::vector<InjectedEvent> out;
    for (const auto& e : a.sc.events) {
        if (a.skipped.count(&e))
            continue;
        InjectedEvent ie;
        ie.at = e.at;
        ie.type = e.type;
        ie.node = e.node;
        ie.driver = e.driver;
        ie.device = e.device;
        ie.taint = e.taint;
        ie.pool = e.poolName;
        ie.selector = e.selector;
        ie.workload = e.workload;
        ie.minCount = e.minCount;
        if (e.type == InjectedEvent::Type::AddNodePool)
            ie.newPool = a.laterPools[e.newPool.path];
        out.push_back(std::move(ie));
    }
    return out;
}

} // namespace

std::shared_ptr<const LoadedCatalog> loadScenarioCatalog(const Scenario& scenario)
{
    auto loaded = std::make_shared<LoadedCatalog>();
    loaded->directory = scenario.catalog.empty() ? topology::Catalog::defaultDirectory()
                                                 : scenario.resolvedPath(scenario.catalog);
    if (!loaded->directory.empty())
        loaded->catalog = topology::Catalog::load(loaded->directory, loaded->problems);
    return loaded;
}

bool checkDeviceModelFailures(const Scenario& scenario, const std::vector<DeviceModelFailures>& entries,
    const std::string& kind, const std::string& name, Diagnostics& diags)
{
    if (entries.empty())
        return true;
    // The shape files' own problems are preparation's to report, at their fields.
    Diagnostics scratch;
    Assembly a(scenario, scratch);
    const ShapeLookup shapes = loadShapes(a, {});
    return checkDeviceModelsKnown(entries, shapes.all(), diags, kind, name);
}

std::optional<sim::PreparedScenario> prepareScenario(
    const Scenario& original, const PrepareOptions& options, Diagnostics& diags)
{
    std::optional<Scenario> overridden;
    if (!options.pools.empty()) {
        overridden = original;
        if (!applyPoolOverrides(*overridden, options.pools, diags))
            return std::nullopt;
    }
    const Scenario& sc = overridden ? *overridden : original;
    // Every missing file at once, each at its field, before the first one stops preparation.
    if (!checkNamedFiles(sc, diags))
        return std::nullopt;
    Assembly a(sc, diags);
    if (!addCatalogPools(a, options) || !addManifests(a) || !addTraceNodes(a)
        || !checkEventTargets(a, options.skipEventsWithoutTarget))
        return std::nullopt;
    sim::PreparedScenario p;
    p.seed = options.seed.value_or(sc.seed);
    sim::PodClaimRefs podClaims;
    const bool withObjects = options.workloadObjects
        ? options.workloadObjects->addTo({ p.seed, 1.0, 1.0, sc.duration }, sc.workloads, sc.featureGates,
            a.base, diags, options.cancel, &podClaims)
        : sim::addWorkloadObjects(
            sc.workloads, p.seed, sc.duration, sc.featureGates, a.base, diags, options.cancel, &podClaims);
    if (!withObjects || a.failed())
        return std::nullopt;
    if (options.cancel && options.cancel->cancelled())
        return std::nullopt; // the cluster may be incomplete
    preloadPoolNodes(a, options.threads);
    // After the pools' slices are in: whether they publish partitions or shareable devices
    // decides what the claim measure reads of a request's selectors.
    p.claimTarget = sim::workloadClaimTarget(podClaims, a.base);

    p.name = sc.name;
    p.file = sc.file;
    p.contentHash = sha256Hex(writeScenario(sc));
    p.duration = sc.duration;
    p.metricInterval = sc.metricInterval;
    p.podInitialBackoff = sc.podInitialBackoff;
    p.podMaxBackoff = sc.podMaxBackoff;
    p.popFromBackoffQ = sc.featureGates.enabled("SchedulerPopFromBackoffQ");
    p.featureGates = sc.featureGates;
    p.scoring = scheduler::parseScoringPolicy(sc.scoring).value_or(scheduler::ScoringPolicy::Default);
    p.tieBreak = sc.tieBreak;
    p.percentageOfNodesToScore = sc.percentageOfNodesToScore.value_or(0);
    if (sc.schedulerConfig) {
        p.profiles
            = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(sc.schedulerConfig->profiles);
        p.filterTimeoutSeconds = sc.schedulerConfig->filterTimeoutSeconds;
    }
    p.whatIfDraPreemption = sc.whatIfDraPreemption;
    p.queueingHints = sc.queueingHints;
    p.events = injectedEvents(a);
    p.skippedEvents = std::move(a.skippedNotes);
    p.objects = std::make_shared<api::ObjectSet>(std::move(a.base)); // non-const: see prepared_scenario.h
    for (auto& pool : a.pools)
        p.pools.push_back(std::make_shared<const NodePool>(std::move(pool)));
    p.placement = std::move(a.placement);
    p.workloads = std::make_shared<const std::vector<workload::WorkloadSpec>>(sc.workloads);
    return p;
}

} // namespace drasim::scenario
