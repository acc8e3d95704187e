// SPDX-License-Identifier: Apache-2.0
#include "core/compare/run_kpis.h"

#include <algorithm>

#include "core/yamlio/yaml_tree.h"

namespace drasim::compare {

const char* const kGroups[8]
    = { "pods", "wait", "gangs", "utilization", "cost", "fragmentation", "placement", "preemption" };

namespace {

using yamlio::YamlNode;

using Group = KpiGroup;

/// A summary that lacks a field the comparison needs: reported with the field's path.
struct MissingField
{
    std::string path;
};

const YamlNode& field(const YamlNode& map, const std::string& key, const std::string& path)
{
    const YamlNode* n = map.get(key);
    if (!n)
        throw MissingField { path.empty() ? key : path + "." + key };
    return *n;
}

double number(const YamlNode& map, const std::string& key, const std::string& path)
{
    const YamlNode& n = field(map, key, path);
    std::optional<double> v = n.asDouble();
    if (!v)
        throw MissingField { (path.empty() ? key : path + "." + key) + " (not a number)" };
    return *v;
}

class Collector
{
public:
    explicit Collector(std::vector<KpiValue>& out)
        : m_out(out)
    { }
    void add(Group g, int section, const std::string& key, int stat, const std::string& name,
        const std::string& unit, Better better, double value, bool zeroWhenAbsent = false)
    {
        addBound(g, section, key, stat, name, unit, better, value, zeroWhenAbsent, false);
    }
    void addBound(Group g, int section, const std::string& key, int stat, const std::string& name,
        const std::string& unit, Better better, double value, bool zeroWhenAbsent, bool atLeast)
    {
        KpiValue v;
        v.order = { int(g), section, key, stat };
        v.group = kGroups[g];
        v.name = key.empty() ? name : name + "/" + key;
        v.unit = unit;
        v.better = better;
        v.value = value;
        v.zeroWhenAbsent = zeroWhenAbsent;
        v.atLeast = atLeast;
        m_out.push_back(std::move(v));
    }

private:
    std::vector<KpiValue>& m_out;
};

void podKpis(const YamlNode& root, Collector& c)
{
    const YamlNode& pods = field(root, "pods", "");
    const double created = number(pods, "created", "pods");
    const double scheduled = number(pods, "scheduled", "pods");
    c.add(Pods, 0, "", 0, "pods.created", "pods", Better::Neither, created);
    c.add(Pods, 0, "", 1, "pods.scheduled", "pods", Better::Higher, scheduled);
    // Every pod is bound at most once (a pod that fails is replaced by a new one), so the pods
    // that never ran are the ones created and not bound: pending at the end or deleted waiting.
    c.add(Pods, 0, "", 2, "pods.neverScheduled", "pods", Better::Lower, created - scheduled);
    c.add(Pods, 0, "", 3, "pods.pendingAtEnd", "pods", Better::Lower, number(pods, "pendingAtEnd", "pods"));
    c.add(Pods, 0, "", 4, "pods.peakPending", "pods", Better::Lower, number(pods, "peakPending", "pods"));
    c.add(Pods, 0, "", 5, "pods.failed", "pods", Better::Lower, number(pods, "failed", "pods"));
    c.add(Pods, 0, "", 6, "pods.evicted", "pods", Better::Lower, number(pods, "evicted", "pods"));
}

/// The figures of a wait distribution that are only lower bounds ("lowerBounds": ["p95", ...]).
std::vector<std::string> lowerBounds(const YamlNode& waits, const std::string& path)
{
    std::vector<std::string> out;
    for (const YamlNode& item : field(waits, "lowerBounds", path).items) {
        std::optional<std::string> name = item.asString();
        if (!name)
            throw MissingField { path + ".lowerBounds (not a list of names)" };
        out.push_back(*name);
    }
    return out;
}

void waitKpis(const YamlNode& waits, const std::string& key, const std::string& path, Collector& c)
{
    // A summary written before waits counted the pods never scheduled describes only the
    // scheduled ones: a run that failed to schedule pods would look better. No wait rows then.
    if (!waits.get("neverScheduled"))
        return;
    const std::vector<std::string> bounds = lowerBounds(waits, path);
    const int section = key.empty() ? 0 : key.rfind("class:", 0) == 0 ? 2 : 1;
    const char* const stats[] = { "p50", "p95", "p99" };
    for (int i = 0; i < 3; ++i) {
        const bool atLeast = std::find(bounds.begin(), bounds.end(), stats[i]) != bounds.end();
        c.addBound(Wait, section, key, i, std::string("wait.") + stats[i], "s", Better::Lower,
            number(waits, stats[i], path), false, atLeast);
    }
}

/// Distributed jobs (present only when a run had grouped jobs): how many started, how long a
/// gang waited to start (bounds where some never started), the device-hours held by members of
/// gangs not started yet, the group cycles the scheduler ran, and how long after its arrival a
/// gang's last member ended.
void gangKpis(const YamlNode& root, Collector& c)
{
    const YamlNode* gangs = root.get("gangs");
    if (!gangs)
        return;
    const double jobs = number(*gangs, "jobs", "gangs");
    const double started = number(*gangs, "started", "gangs");
    c.add(Gangs, 0, "", 0, "gangs.jobs", "jobs", Better::Neither, jobs);
    c.add(Gangs, 0, "", 1, "gangs.started", "jobs", Better::Higher, started);
    c.add(Gangs, 0, "", 2, "gangs.neverStarted", "jobs", Better::Lower, jobs - started);
    const YamlNode& start = field(*gangs, "secondsToStart", "gangs");
    const std::vector<std::string> bounds = lowerBounds(start, "gangs.secondsToStart");
    const char* const stats[] = { "p50", "p95", "p99" };
    for (int i = 0; i < 3; ++i) {
        const bool atLeast = std::find(bounds.begin(), bounds.end(), stats[i]) != bounds.end();
        c.addBound(Gangs, 0, "", 3 + i, std::string("gangs.start.") + stats[i], "s", Better::Lower,
            number(start, stats[i], "gangs.secondsToStart"), false, atLeast);
    }
    c.add(Gangs, 0, "", 6, "gangs.idleDeviceHours", "device-h", Better::Lower,
        number(*gangs, "idleDeviceHours", "gangs"));
    c.add(Gangs, 0, "", 7, "gangs.groupCycles", "cycles", Better::Neither,
        number(*gangs, "groupCycles", "gangs"));
    // Runs stored before the completion times were summarised have none: no rows then.
    const YamlNode* complete = gangs->get("secondsToComplete");
    if (!complete)
        return;
    const std::vector<std::string> ended = lowerBounds(*complete, "gangs.secondsToComplete");
    for (int i = 0; i < 3; ++i) {
        const bool atLeast = std::find(ended.begin(), ended.end(), stats[i]) != ended.end();
        c.addBound(Gangs, 0, "", 8 + i, std::string("gangs.complete.") + stats[i], "s", Better::Lower,
            number(*complete, stats[i], "gangs.secondsToComplete"), false, atLeast);
    }
}

void workloadKpis(const YamlNode& root, Collector& c)
{
    waitKpis(field(root, "waitSeconds", ""), "", "waitSeconds", c);
    const YamlNode& workloads = field(root, "workloads", "");
    for (size_t i = 0; i < workloads.items.size(); ++i) {
        const std::string path = "workloads[" + std::to_string(i) + "]";
        const YamlNode& w = workloads.items[i];
        const std::optional<std::string> name = field(w, "name", path).asString();
        if (!name)
            throw MissingField { path + ".name (not a string)" };
        waitKpis(field(w, "waitSeconds", path), *name, path + ".waitSeconds", c);
    }
}

/// What preemption did and the waits per priority class, present only in runs that preempted or
/// had more than one priority class: a run without them preempted nothing.
void preemptionKpis(const YamlNode& root, Collector& c)
{
    if (const YamlNode* p = root.get("preemption")) {
        c.add(Preemption, 0, "", 0, "preemption.preemptions", "preemptions", Better::Neither,
            number(*p, "preemptions", "preemption"), true);
        c.add(Preemption, 0, "", 1, "preemption.victims", "pods", Better::Lower,
            number(*p, "victims", "preemption"), true);
        c.add(Preemption, 0, "", 2, "preemption.lostDeviceHours", "device-h", Better::Lower,
            number(*p, "lostDeviceHours", "preemption"), true);
    }
    const YamlNode* classes = root.get("priorityClasses");
    if (!classes)
        return;
    for (size_t i = 0; i < classes->items.size(); ++i) {
        const std::string path = "priorityClasses[" + std::to_string(i) + "]";
        const YamlNode& cls = classes->items[i];
        const std::optional<std::string> name = field(cls, "name", path).asString();
        if (!name)
            throw MissingField { path + ".name (not a string)" };
        waitKpis(field(cls, "waitSeconds", path), "class:" + *name, path + ".waitSeconds", c);
    }
}

void utilizationKpis(const YamlNode& root, Collector& c)
{
    const YamlNode* models = field(root, "utilization", "").get("model");
    if (!models)
        return; // a cluster without devices
    for (const auto& [k, v] : models->entries) {
        const std::string model = k.scalar;
        const std::string path = "utilization.model." + model;
        c.add(
            Utilization, 0, model, 0, "utilization.mean", "%", Better::Higher, 100 * number(v, "mean", path));
        c.add(
            Utilization, 0, model, 1, "utilization.peak", "%", Better::Higher, 100 * number(v, "peak", path));
    }
}

void costKpis(const YamlNode& root, Collector& c)
{
    const YamlNode& cost = field(root, "cost", "");
    c.add(Cost, 0, "", 0, "cost.total", "USD", Better::Lower, number(cost, "totalUsd", "cost"));
    for (const auto& [k, v] : field(cost, "byPool", "cost").entries) {
        std::optional<double> usd = v.asDouble();
        if (!usd)
            throw MissingField { "cost.byPool." + k.scalar + " (not a number)" };
        c.add(Cost, 1, k.scalar, 0, "cost.pool", "USD", Better::Lower, *usd);
    }
}

/// Keyed numbers (fragmentation by reason, placement by class): a key a run never saw is zero.
void keyedKpis(const YamlNode& root, const std::string& key, Group g, const std::string& name,
    const std::string& unit, Better better, Collector& c)
{
    double total = 0;
    for (const auto& [k, v] : field(root, key, "").entries) {
        std::optional<double> value = v.asDouble();
        if (!value)
            throw MissingField { key + "." + k.scalar + " (not a number)" };
        total += *value;
        c.add(g, 1, k.scalar, 0, name, unit, better, *value, true);
    }
    if (g == Fragmentation)
        c.add(g, 0, "", 0, "fragmentation.total", unit, better, total);
}

} // namespace

std::vector<KpiValue> runKpis(int64_t runId, const std::string& summaryJson)
{
    const std::string who = "run " + std::to_string(runId);
    Diagnostics diags;
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(summaryJson, who + " summary", diags);
    if (diags.hasErrors() || docs.size() != 1 || !docs[0].isMap())
        throw CompareError(who + ": the stored summary is not a JSON document");
    std::vector<KpiValue> out;
    Collector c(out);
    try {
        podKpis(docs[0], c);
        workloadKpis(docs[0], c);
        gangKpis(docs[0], c);
        utilizationKpis(docs[0], c);
        costKpis(docs[0], c);
        keyedKpis(docs[0], "fragmentationMeanFreeDevices", Fragmentation, "fragmentation.reason", "devices",
            Better::Lower, c);
        keyedKpis(docs[0], "placement", Placement, "placement.claims", "claims", Better::Neither, c);
        preemptionKpis(docs[0], c);
    } catch (const MissingField& m) {
        throw CompareError(who + ": the stored summary lacks " + m.path);
    }
    return out;
}

} // namespace drasim::compare
