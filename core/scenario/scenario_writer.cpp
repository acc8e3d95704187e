// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/scenario_writer.h"

#include "core/scenario/pool_failures_yaml.h"
#include "core/scenario/rack_layout_yaml.h"

namespace drasim::scenario {

namespace {

using sim::InjectedEvent;

DataValue pathList(const std::vector<std::string>& paths)
{
    DataValue list = DataValue::list();
    for (const auto& p : paths)
        list.push(p);
    return list;
}

DataValue poolData(const NodePoolSpec& p)
{
    DataValue d = DataValue::map();
    d.set("name", p.name);
    d.set("shape", p.shape);
    d.set("count", int64_t(p.count));
    if (p.namePrefix != p.name) // the reader defaults the prefix to the name
        d.set("namePrefix", p.namePrefix);
    if (p.pricePerHour)
        d.set("pricePerHour", *p.pricePerHour);
    if (p.layout != topology::RackLayout {})
        d.set("layout", rackLayoutData(p.layout));
    if (p.failures.failures)
        d.set("failures", failureProcessData(*p.failures.failures));
    if (p.failures.spot)
        d.set("spot", spotReclaimData(*p.failures.spot));
    return d;
}

DataValue eventData(const ScenarioEvent& e)
{
    DataValue d = DataValue::map();
    d.set("at", sim::formatDuration(e.at));
    d.set("type", sim::injectedEventTypeName(e.type));
    auto optional = [&](const char* key, const std::string& value) {
        if (!value.empty())
            d.set(key, value);
    };
    switch (e.type) {
    case InjectedEvent::Type::NodeFailure:
    case InjectedEvent::Type::NodeReturn:
        d.set("node", e.node);
        break;
    case InjectedEvent::Type::DeviceTaint:
    case InjectedEvent::Type::DeviceUntaint:
        d.set("node", e.node);
        optional("driver", e.driver);
        optional("device", e.device);
        d.set("key", e.taint.key);
        if (e.type == InjectedEvent::Type::DeviceTaint) {
            optional("value", e.taint.value);
            d.set("effect", e.taint.effect);
        }
        break;
    case InjectedEvent::Type::AddNodePool:
        d.set("pool", poolData(e.newPool));
        break;
    case InjectedEvent::Type::NodeTaint:
    case InjectedEvent::Type::NodeUntaint:
        d.set("node", e.node);
        d.set("key", e.taint.key);
        if (e.type == InjectedEvent::Type::NodeTaint) {
            optional("value", e.taint.value);
            d.set("effect", e.taint.effect);
        }
        break;
    case InjectedEvent::Type::RemoveNodePool:
    case InjectedEvent::Type::DeviceTaintRuleDelete:
        d.set("name", e.poolName);
        break;
    case InjectedEvent::Type::PodGroupMinCount:
        d.set("workload", e.workload);
        d.set("minCount", int64_t(e.minCount));
        break;
    case InjectedEvent::Type::DeviceTaintRule: {
        d.set("name", e.poolName);
        DataValue sel = DataValue::map();
        if (e.selector && e.selector->driver)
            sel.set("driver", *e.selector->driver);
        if (e.selector && e.selector->pool)
            sel.set("pool", *e.selector->pool);
        if (e.selector && e.selector->device)
            sel.set("device", *e.selector->device);
        d.set("selector", std::move(sel));
        d.set("key", e.taint.key);
        optional("value", e.taint.value);
        d.set("effect", e.taint.effect);
        break;
    }
    }
    return d;
}

DataValue clusterData(const Scenario& s)
{
    DataValue c = DataValue::map();
    if (!s.catalog.empty())
        c.set("catalog", s.catalog);
    if (!s.shapeFiles.empty())
        c.set("shapes", pathList(s.shapeFiles));
    if (!s.nodePools.empty()) {
        DataValue pools = DataValue::list();
        for (const auto& p : s.nodePools)
            pools.push(poolData(p));
        c.set("nodePools", std::move(pools));
    }
    if (!s.failuresByDeviceModel.empty())
        c.set("failures", failuresByDeviceModelData(s.failuresByDeviceModel));
    if (!s.manifests.empty())
        c.set("manifests", pathList(s.manifests));
    if (s.traceCluster) {
        DataValue t = DataValue::map();
        t.set("nodes", s.traceCluster->nodesPath);
        bool partitions = s.traceCluster->sharing == workload::GpuSharing::Partitions;
        t.set("sharing", partitions ? "partitions" : "capacity");
        if (partitions)
            t.set("partitionsPerGpu", int64_t(s.traceCluster->partitionsPerGpu));
        c.set("trace", std::move(t));
    }
    return c;
}

} // namespace

DataValue toData(const Scenario& s)
{
    DataValue spec = DataValue::map();
    spec.set("seed", int64_t(s.seed));
    spec.set("duration", sim::formatDuration(s.duration));
    spec.set("metricInterval", sim::formatDuration(s.metricInterval));
    DataValue cluster = clusterData(s);
    if (!cluster.asMap().empty())
        spec.set("cluster", std::move(cluster));
    if (!s.resources.empty())
        spec.set("resources", pathList(s.resources));
    if (s.workloadsDocument.isList() && !s.workloadsDocument.asList().empty())
        spec.set("workloads", s.workloadsDocument);
    DataValue scheduler = DataValue::map();
    // A configuration carries the scoring, percentageOfNodesToScore and the backoffs itself.
    const bool configured = !s.schedulerConfigFile.empty() || !s.schedulerConfigDocument.isNull();
    if (!s.schedulerConfigFile.empty())
        scheduler.set("configFile", s.schedulerConfigFile);
    else if (configured)
        scheduler.set("config", s.schedulerConfigDocument);
    if (!configured)
        scheduler.set("scoring", s.scoring);
    // Written only when not the default, so that saved scenarios keep their content hashes.
    if (s.tieBreak != scheduler::TieBreak::NodeName)
        scheduler.set("tieBreak", scheduler::tieBreakName(s.tieBreak));
    if (s.percentageOfNodesToScore && !configured)
        scheduler.set("percentageOfNodesToScore", int64_t(*s.percentageOfNodesToScore));
    if (!configured) {
        scheduler.set("podInitialBackoff", sim::formatDuration(s.podInitialBackoff));
        scheduler.set("podMaxBackoff", sim::formatDuration(s.podMaxBackoff));
    }
    // Written only when set, so that saved scenarios (and their content hashes) from before
    // versions and gates existed stay as they were.
    if (s.kubernetesVersionSet)
        scheduler.set("kubernetesVersion", api::kubernetesVersionName(s.featureGates.version()));
    if (!s.queueingHints)
        scheduler.set("queueingHints", false);
    if (s.whatIfDraPreemption) {
        DataValue whatIf = DataValue::map();
        whatIf.set("draPreemption", true);
        scheduler.set("whatIf", std::move(whatIf));
    }
    if (!s.featureGates.overrides().empty()) {
        DataValue gates = DataValue::map();
        for (const auto& [name, value] : s.featureGates.overrides())
            gates.set(name, value);
        scheduler.set("featureGates", std::move(gates));
    }
    spec.set("scheduler", std::move(scheduler));
    if (!s.events.empty()) {
        DataValue events = DataValue::list();
        for (const auto& e : s.events)
            events.push(eventData(e));
        spec.set("events", std::move(events));
    }

    DataValue doc = DataValue::map();
    doc.set("apiVersion", kScenarioApiVersion);
    doc.set("kind", "Scenario");
    DataValue meta = DataValue::map();
    meta.set("name", s.name);
    doc.set("metadata", std::move(meta));
    doc.set("spec", std::move(spec));
    return doc;
}

std::string writeScenario(const Scenario& s)
{
    return toYaml(toData(s));
}

} // namespace drasim::scenario
