// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/variant.h"

#include <algorithm>
#include <filesystem>

#include "core/scheduler/scoring_profile.h"
#include "core/sim/run_overrides.h"
#include "core/yamlio/doc_reader.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

namespace {

using yamlio::DocReader;
using yamlio::YamlNode;
using Kind = VariantOverride::Kind;

void readAddPool(DocReader& r, const YamlNode& n, const std::string& path, VariantOverride& o)
{
    o.pool.pos = n.pos;
    o.pool.path = path;
    r.fields(n, path, "name, shape, count, namePrefix, pricePerHour",
        [&](const std::string& k, const YamlNode& v, const std::string& p) {
            if (k == "name")
                o.pool.name = r.string(v, p).value_or("");
            else if (k == "shape")
                o.pool.shape = r.string(v, p).value_or("");
            else if (k == "count")
                o.pool.count = int(r.integer(v, p, 0, 100000).value_or(0));
            else if (k == "namePrefix")
                o.pool.namePrefix = r.string(v, p).value_or("");
            else if (k == "pricePerHour")
                o.pool.pricePerHour = r.number(v, p, 0);
            else
                return false;
            return true;
        });
    if (o.pool.name.empty())
        r.required(n, yamlio::joinPath(path, "name"));
    if (o.pool.shape.empty())
        r.required(n, yamlio::joinPath(path, "shape"));
    o.name = o.pool.name;
}

void readSetPool(DocReader& r, const YamlNode& n, const std::string& path, VariantOverride& o)
{
    r.fields(
        n, path, "name, count, shape", [&](const std::string& k, const YamlNode& v, const std::string& p) {
            if (k == "name")
                o.name = r.string(v, p).value_or("");
            else if (k == "count")
                o.count = int(r.integer(v, p, 0, 100000).value_or(0));
            else if (k == "shape")
                o.shape = r.string(v, p);
            else
                return false;
            return true;
        });
    if (o.name.empty())
        r.required(n, yamlio::joinPath(path, "name"));
    if (!o.count && !o.shape)
        r.error(n, path, "Required value: count or shape");
}

void readScale(DocReader& r, const YamlNode& n, const std::string& path, VariantOverride& o)
{
    r.fields(n, path, "name, arrival, duration",
        [&](const std::string& k, const YamlNode& v, const std::string& p) {
            if (k == "name")
                o.name = r.string(v, p).value_or("");
            else if (k == "arrival")
                o.arrival = r.number(v, p, 1e-6, 1e6).value_or(1.0);
            else if (k == "duration")
                o.duration = r.number(v, p, 1e-6, 1e6).value_or(1.0);
            else
                return false;
            return true;
        });
    if (o.name.empty())
        r.required(n, yamlio::joinPath(path, "name"));
}

void readFailure(DocReader& r, const YamlNode& n, const std::string& path, VariantOverride& o)
{
    bool hasAt = false;
    r.fields(n, path, "at, node, for", [&](const std::string& k, const YamlNode& v, const std::string& p) {
        if (k == "at") {
            hasAt = true;
            o.at = r.milliseconds(v, p).value_or(0);
        } else if (k == "node") {
            o.node = r.string(v, p).value_or("");
        } else if (k == "for") {
            o.lasts = r.milliseconds(v, p);
        } else {
            return false;
        }
        return true;
    });
    if (!hasAt)
        r.required(n, yamlio::joinPath(path, "at"));
    if (o.node.empty())
        r.required(n, yamlio::joinPath(path, "node"));
}

void readScheduling(DocReader& r, const YamlNode& n, const std::string& path, VariantOverride& o)
{
    r.fields(n, path, "scoring", [&](const std::string& k, const YamlNode& v, const std::string& p) {
        if (k != "scoring")
            return false;
        o.scoring = r.string(v, p).value_or("");
        if (!o.scoring.empty() && !scheduler::parseScoringPolicy(o.scoring))
            r.error(v, p, scheduler::unknownScoringPolicyMessage(o.scoring));
        return true;
    });
    if (o.scoring.empty())
        r.required(n, yamlio::joinPath(path, "scoring"));
}

void readOverride(
    DocReader& r, const YamlNode& item, const std::string& path, std::vector<VariantOverride>& out)
{
    if (!r.isMap(item, path))
        return;
    if (item.entries.size() != 1) {
        r.error(item, path, "an override has exactly one key, got " + std::to_string(item.entries.size()));
        return;
    }
    const auto& [k, v] = item.entries.front();
    const std::string key = k.asString().value_or(k.scalar);
    const std::string p = yamlio::joinPath(path, key);
    VariantOverride o;
    o.pos = item.pos;
    o.path = p;
    if (key == "addNodePool") {
        o.kind = Kind::AddNodePool;
        readAddPool(r, v, p, o);
    } else if (key == "removeNodePool") {
        o.kind = Kind::RemoveNodePool;
        o.name = r.string(v, p).value_or("");
    } else if (key == "setNodePool") {
        o.kind = Kind::SetNodePool;
        readSetPool(r, v, p, o);
    } else if (key == "scaleWorkload") {
        o.kind = Kind::ScaleWorkload;
        readScale(r, v, p, o);
    } else if (key == "scheduling") {
        o.kind = Kind::Scheduling;
        readScheduling(r, v, p, o);
    } else if (key == "failure") {
        o.kind = Kind::Failure;
        readFailure(r, v, p, o);
    } else {
        r.unknownField(k, p, "addNodePool, removeNodePool, setNodePool, scaleWorkload, scheduling, failure");
        return;
    }
    out.push_back(std::move(o));
}

std::vector<NodePoolSpec>::iterator findPool(Scenario& sc, const std::string& name)
{
    return std::find_if(
        sc.nodePools.begin(), sc.nodePools.end(), [&](const NodePoolSpec& p) { return p.name == name; });
}

ScenarioEvent nodeEvent(const VariantOverride& o, SimTime at, sim::InjectedEvent::Type type)
{
    ScenarioEvent e;
    e.at = at;
    e.type = type;
    e.node = o.node;
    e.pos = o.pos;
    e.path = o.path;
    return e;
}

/// One override; false (reported) when it names what the base does not have.
bool applyOne(Scenario& sc, const VariantOverride& o, DocReader& r)
{
    auto missing = [&](const char* what) {
        r.error(o.pos, o.path, std::string("no ") + what + " \"" + o.name + "\" in scenario " + sc.name);
        return false;
    };
    switch (o.kind) {
    case Kind::AddNodePool:
        if (findPool(sc, o.name) != sc.nodePools.end()) {
            r.error(o.pos, o.path, "scenario " + sc.name + " already has a node pool \"" + o.name + "\"");
            return false;
        }
        sc.nodePools.push_back(o.pool);
        return true;
    case Kind::RemoveNodePool: {
        auto it = findPool(sc, o.name);
        if (it == sc.nodePools.end())
            return missing("node pool");
        sc.nodePools.erase(it);
        return true;
    }
    case Kind::SetNodePool: {
        auto it = findPool(sc, o.name);
        if (it == sc.nodePools.end())
            return missing("node pool");
        if (o.count)
            it->count = *o.count;
        if (o.shape)
            it->shape = *o.shape;
        return true;
    }
    case Kind::ScaleWorkload: {
        auto it = std::find_if(sc.workloads.begin(), sc.workloads.end(),
            [&](const workload::WorkloadSpec& w) { return w.name == o.name; });
        if (it == sc.workloads.end())
            return missing("workload");
        *it = sim::scaledWorkloads({ *it }, o.arrival, o.duration).front();
        return true;
    }
    case Kind::Scheduling:
        // A named policy replaces the base's scheduler configuration, if it has one.
        sc.scoring = o.scoring;
        sc.schedulerConfig = nullptr;
        sc.schedulerConfigFile.clear();
        sc.schedulerConfigDocument = DataValue();
        return true;
    case Kind::Failure:
        sc.events.push_back(nodeEvent(o, o.at, sim::InjectedEvent::Type::NodeFailure));
        if (o.lasts)
            sc.events.push_back(nodeEvent(o, o.at + *o.lasts, sim::InjectedEvent::Type::NodeReturn));
        std::stable_sort(sc.events.begin(), sc.events.end(),
            [](const ScenarioEvent& a, const ScenarioEvent& b) { return a.at < b.at; });
        return true;
    }
    return false;
}

} // namespace

bool isVariantText(std::string_view text)
{
    Diagnostics quiet;
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(text, "", quiet);
    if (docs.empty() || !docs[0].isMap())
        return false;
    const YamlNode* kind = docs[0].get("kind");
    return kind && kind->asString() == std::string("Variant");
}

std::optional<Variant> parseVariant(std::string_view text, const std::string& file, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(text, file, diags);
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    Variant v;
    v.file = file;
    const std::string dir = std::filesystem::path(file).parent_path().string();
    v.baseDir = dir.empty() ? "." : dir;
    DocReader r(diags, "Variant");
    const yamlio::DocumentFrame frame
        = yamlio::readDocumentFrame(r, docs, file, kScenarioApiVersion, "Variant");
    v.name = r.name();
    if (frame.spec) {
        r.fields(*frame.spec, "spec", "base, overrides",
            [&](const std::string& k, const YamlNode& n, const std::string& p) {
                if (k == "base")
                    v.base = r.string(n, p).value_or("");
                else if (k == "overrides")
                    r.items(n, p, [&](const YamlNode& item, const std::string& ip) {
                        readOverride(r, item, ip, v.overrides);
                    });
                else
                    return false;
                return true;
            });
        if (v.base.empty())
            r.required(*frame.spec, "spec.base");
    }
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    return v;
}

bool applyVariant(Scenario& base, const Variant& variant, Diagnostics& diags)
{
    DocReader r(diags, "Variant", variant.name);
    bool ok = true;
    for (const VariantOverride& o : variant.overrides)
        ok = applyOne(base, o, r) && ok;
    base.name = variant.name;
    return ok;
}

namespace {

std::optional<Scenario> loadAtDepth(const std::string& path, Diagnostics& diags, int depth)
{
    std::string text, error;
    if (!yamlio::readFile(path, text, &error, 64u << 20)) {
        diags.error(SourcePos { path, 0, 0 }, "Scenario", "", "", "cannot read scenario file: " + error);
        return std::nullopt;
    }
    if (!isVariantText(text))
        return parseScenario(text, path, diags);
    std::optional<Variant> v = parseVariant(text, path, diags);
    if (!v)
        return std::nullopt;
    if (depth >= 8) { // a variant of a variant of ... that never reaches a Scenario
        diags.error(SourcePos { path, 0, 0 }, "Variant", v->name, "spec.base",
            "more than 8 variants deep (does a variant name itself as its base?)");
        return std::nullopt;
    }
    std::optional<Scenario> sc = loadAtDepth(resolvePath(v->baseDir, v->base), diags, depth + 1);
    if (!sc || !applyVariant(*sc, *v, diags))
        return std::nullopt;
    return sc;
}

} // namespace

std::optional<Scenario> loadScenarioOrVariant(const std::string& path, Diagnostics& diags)
{
    return loadAtDepth(path, diags, 0);
}

} // namespace drasim::scenario
