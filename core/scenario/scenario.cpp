// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/scenario.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/workload/workload_spec_yaml.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

using sim::formatDuration;
using sim::InjectedEvent;
using sim::parseDuration;

namespace {

using yamlio::YamlNode;

/// Error reporting and typed access for one scenario document.
class ScenarioReader
{
public:
    ScenarioReader(Diagnostics& diags)
        : m_diags(diags)
    { }

    std::string name;

    void error(const YamlNode& n, const std::string& field, const std::string& message)
    {
        m_diags.error(n.pos, "Scenario", name, field, message);
        ++m_errors;
    }
    size_t errors() const { return m_errors; }

    /// Calls f(key, value) for each entry of a map; f returns false for unknown keys.
    template <class F> bool fields(const YamlNode& n, const std::string& path, F&& f)
    {
        if (!n.isMap()) {
            error(n, path, std::string("must be a map, not ") + n.typeName());
            return false;
        }
        for (const auto& [k, v] : n.entries) {
            std::string key = k.asString().value_or("");
            std::string sub = path.empty() ? key : path + "." + key;
            if (!f(key, v, sub))
                error(k, sub, "unknown field \"" + key + "\"");
        }
        return true;
    }

    bool string(const YamlNode& n, const std::string& path, std::string& out)
    {
        auto s = n.asString();
        if (!s || !n.isScalar()) {
            error(n, path, std::string("must be a string, not ") + n.typeName());
            return false;
        }
        out = *s;
        return true;
    }

    bool integer(const YamlNode& n, const std::string& path, int64_t& out, int64_t min)
    {
        auto v = n.asInt();
        if (!v) {
            error(n, path, std::string("must be an integer, not ") + n.typeName());
            return false;
        }
        if (*v < min) {
            error(n, path,
                "Invalid value: " + std::to_string(*v) + ": must be greater than or equal to "
                    + std::to_string(min));
            return false;
        }
        out = *v;
        return true;
    }

    bool number(const YamlNode& n, const std::string& path, double& out)
    {
        auto v = n.asDouble();
        if (!v || *v < 0) {
            error(n, path, "must be a non-negative number");
            return false;
        }
        out = *v;
        return true;
    }

    bool duration(const YamlNode& n, const std::string& path, SimTime& out)
    {
        std::string text = n.asString().value_or("");
        if (!n.isScalar() || !parseDuration(text, out)) {
            error(n, path,
                "Invalid value: \"" + text + "\": must be a duration such as 90s, 15m, 1h30m, 2d or seconds");
            return false;
        }
        return true;
    }

    /// A path or a list of paths, kept as written.
    void stringList(const YamlNode& n, const std::string& path, std::vector<std::string>& out)
    {
        if (n.isScalar()) { // a single path is accepted as a one-element list
            std::string s;
            if (string(n, path, s))
                out.push_back(s);
            return;
        }
        if (!n.isSequence()) {
            error(n, path, std::string("must be a list of paths, not ") + n.typeName());
            return;
        }
        for (size_t i = 0; i < n.items.size(); ++i) {
            std::string s;
            if (string(n.items[i], path + "[" + std::to_string(i) + "]", s))
                out.push_back(s);
        }
    }

private:
    Diagnostics& m_diags;
    size_t m_errors = 0;
};

bool validName(const std::string& s)
{
    if (s.empty() || s.size() > 63)
        return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c))
                || c == '-'))
            return false;
    return std::isalnum(static_cast<unsigned char>(s.front()))
        && std::isalnum(static_cast<unsigned char>(s.back()));
}

void parsePool(ScenarioReader& r, const YamlNode& n, const std::string& path, NodePoolSpec& pool)
{
    pool.pos = n.pos;
    pool.path = path;
    bool haveName = false, haveShape = false, haveCount = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "name") {
            haveName = r.string(v, sub, pool.name);
            if (haveName && !validName(pool.name))
                r.error(v, sub,
                    "Invalid value: \"" + pool.name
                        + "\": a lowercase RFC 1123 label must consist of lower case alphanumeric "
                          "characters or '-', and must start and end with an alphanumeric character");
        } else if (key == "shape") {
            haveShape = r.string(v, sub, pool.shape);
        } else if (key == "count") {
            int64_t c = 0;
            haveCount = r.integer(v, sub, c, 0);
            if (haveCount && c > 1'000'000) {
                r.error(v, sub, "Invalid value: " + std::to_string(c) + ": must be at most 1000000");
                haveCount = false;
            }
            pool.count = int(c);
        } else if (key == "namePrefix") {
            r.string(v, sub, pool.namePrefix);
        } else if (key == "pricePerHour") {
            double p = 0;
            if (r.number(v, sub, p))
                pool.pricePerHour = p;
        } else {
            return false;
        }
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveName && !n.get("name"))
        r.error(n, path + ".name", "Required value");
    if (!haveShape && !n.get("shape"))
        r.error(n, path + ".shape", "Required value");
    if (!haveCount && !n.get("count"))
        r.error(n, path + ".count", "Required value");
    if (pool.namePrefix.empty())
        pool.namePrefix = pool.name;
}

const char* const kEventTypes[]
    = { "NodeFailure", "NodeReturn", "DeviceTaint", "DeviceUntaint", "AddNodePool", "RemoveNodePool" };

void parseEvent(ScenarioReader& r, const YamlNode& n, const std::string& path, ScenarioEvent& e)
{
    e.pos = n.pos;
    e.path = path;
    std::string type;
    const YamlNode* typeNode = n.isMap() ? n.get("type") : nullptr;
    bool haveAt = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "at")
            haveAt = r.duration(v, sub, e.at);
        else if (key == "type")
            r.string(v, sub, type);
        else if (key == "node")
            r.string(v, sub, e.node);
        else if (key == "driver")
            r.string(v, sub, e.driver);
        else if (key == "device")
            r.string(v, sub, e.device);
        else if (key == "key")
            r.string(v, sub, e.taint.key);
        else if (key == "value")
            r.string(v, sub, e.taint.value);
        else if (key == "effect")
            r.string(v, sub, e.taint.effect);
        else if (key == "name")
            r.string(v, sub, e.poolName);
        else if (key == "pool")
            parsePool(r, v, sub, e.newPool);
        else
            return false;
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveAt && !n.get("at"))
        r.error(n, path + ".at", "Required value");
    if (!typeNode) {
        r.error(n, path + ".type", "Required value");
        return;
    }
    auto need = [&](const std::string& value, const char* field) {
        if (value.empty())
            r.error(n, path + "." + field, std::string("Required value: needed by type ") + type);
    };
    if (type == "NodeFailure" || type == "NodeReturn") {
        e.type = type == "NodeFailure" ? InjectedEvent::Type::NodeFailure : InjectedEvent::Type::NodeReturn;
        need(e.node, "node");
    } else if (type == "DeviceTaint" || type == "DeviceUntaint") {
        e.type
            = type == "DeviceTaint" ? InjectedEvent::Type::DeviceTaint : InjectedEvent::Type::DeviceUntaint;
        need(e.node, "node");
        need(e.taint.key, "key");
        if (type == "DeviceTaint") {
            if (e.taint.effect.empty())
                e.taint.effect = "NoSchedule";
            if (e.taint.effect != "NoSchedule" && e.taint.effect != "NoExecute" && e.taint.effect != "None")
                r.error(*n.get("effect"), path + ".effect",
                    "Unsupported value: \"" + e.taint.effect
                        + "\": supported values: \"NoSchedule\", \"NoExecute\", \"None\"");
        }
    } else if (type == "AddNodePool") {
        e.type = InjectedEvent::Type::AddNodePool;
        if (!n.get("pool"))
            r.error(n, path + ".pool", "Required value: needed by type AddNodePool");
    } else if (type == "RemoveNodePool") {
        e.type = InjectedEvent::Type::RemoveNodePool;
        need(e.poolName, "name");
    } else {
        std::string list;
        for (const char* t : kEventTypes)
            list += std::string(list.empty() ? "" : ", ") + "\"" + t + "\"";
        r.error(*typeNode, path + ".type", "Unsupported value: \"" + type + "\": supported values: " + list);
    }
}

void parseCluster(
    ScenarioReader& r, const YamlNode& n, const std::string& path, Scenario& s, Diagnostics& diags)
{
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "catalog") {
            r.string(v, sub, s.catalog);
        } else if (key == "shapes") {
            r.stringList(v, sub, s.shapeFiles);
        } else if (key == "manifests") {
            r.stringList(v, sub, s.manifests);
        } else if (key == "nodePools") {
            if (!v.isSequence()) {
                r.error(v, sub, std::string("must be a list, not ") + v.typeName());
                return true;
            }
            std::set<std::string> names;
            for (size_t i = 0; i < v.items.size(); ++i) {
                NodePoolSpec pool;
                std::string ip = sub + "[" + std::to_string(i) + "]";
                parsePool(r, v.items[i], ip, pool);
                if (!pool.name.empty() && !names.insert(pool.name).second)
                    r.error(v.items[i], ip + ".name", "Duplicate value: \"" + pool.name + "\"");
                s.nodePools.push_back(std::move(pool));
            }
        } else if (key == "trace") {
            size_t before = diags.errorCount();
            s.traceCluster = workload::parseTraceClusterSpec(v, "", diags); // path kept as written
            if (!s.traceCluster && diags.errorCount() == before)
                r.error(v, sub, "invalid trace cluster");
        } else {
            return false;
        }
        return true;
    });
}

void parseScheduler(ScenarioReader& r, const YamlNode& v, const std::string& sub, Scenario& s)
{
    r.fields(v, sub, [&](const std::string& k, const YamlNode& sv, const std::string& ss) {
        if (k == "scoring") {
            if (r.string(sv, ss, s.scoring) && s.scoring != "default" && s.scoring != "most-allocated"
                && s.scoring != "least-allocated")
                r.error(sv, ss,
                    "Unsupported value: \"" + s.scoring
                        + "\": supported values: \"default\", \"least-allocated\", "
                          "\"most-allocated\"");
        } else if (k == "podInitialBackoff") {
            r.duration(sv, ss, s.podInitialBackoff);
        } else if (k == "podMaxBackoff") {
            r.duration(sv, ss, s.podMaxBackoff);
        } else {
            return false;
        }
        return true;
    });
}

void parseSpec(ScenarioReader& r, const YamlNode& spec, Scenario& s, Diagnostics& diags)
{
    r.fields(spec, "spec", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "seed") {
            int64_t seed = 0;
            if (r.integer(v, sub, seed, 0))
                s.seed = uint64_t(seed);
        } else if (key == "duration") {
            if (r.duration(v, sub, s.duration) && s.duration <= 0)
                r.error(v, sub, "Invalid value: must be greater than 0");
        } else if (key == "metricInterval") {
            r.duration(v, sub, s.metricInterval);
        } else if (key == "cluster") {
            parseCluster(r, v, sub, s, diags);
        } else if (key == "resources") {
            r.stringList(v, sub, s.resources);
        } else if (key == "workloads") {
            size_t before = diags.errorCount();
            auto list = workload::parseWorkloadList(v, s.baseDir, diags);
            if (list) {
                s.workloads = std::move(*list);
                s.workloadsDocument = workload::yamlToDataValue(v);
            } else if (diags.errorCount() == before)
                r.error(v, sub, "invalid workloads");
        } else if (key == "scheduler") {
            parseScheduler(r, v, sub, s);
        } else if (key == "events") {
            if (!v.isSequence()) {
                r.error(v, sub, std::string("must be a list, not ") + v.typeName());
                return true;
            }
            for (size_t i = 0; i < v.items.size(); ++i) {
                ScenarioEvent e;
                parseEvent(r, v.items[i], sub + "[" + std::to_string(i) + "]", e);
                s.events.push_back(std::move(e));
            }
        } else {
            return false;
        }
        return true;
    });
}

} // namespace

std::string resolvePath(const std::string& baseDir, const std::string& path)
{
    if (path.empty() || path.front() == '/' || baseDir.empty() || baseDir == ".")
        return path;
    return (std::filesystem::path(baseDir) / path).lexically_normal().string();
}

std::string Scenario::resolvedPath(const std::string& path) const
{
    return resolvePath(baseDir, path);
}

std::optional<Scenario> parseScenario(std::string_view text, const std::string& file, Diagnostics& diags)
{
    size_t errorsBefore = diags.errorCount();
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(text, file, diags);
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    Scenario s;
    s.file = file;
    std::string dir = std::filesystem::path(file).parent_path().string();
    s.baseDir = dir.empty() ? "." : dir;
    ScenarioReader r(diags);
    if (docs.empty() || docs.front().isNull()) {
        diags.error(SourcePos { file, 1, 1 }, "Scenario", "", "", "empty document: expected kind: Scenario");
        return std::nullopt;
    }
    if (docs.size() > 1)
        r.error(docs[1], "", "a scenario file holds exactly one document");
    const YamlNode& root = docs.front();
    s.pos = root.pos;
    if (!root.isMap()) {
        r.error(root, "", std::string("must be a map, not ") + root.typeName());
        return std::nullopt;
    }
    if (const YamlNode* meta = root.get("metadata"); meta && meta->isMap())
        if (const YamlNode* name = meta->get("name"))
            s.name = r.name = name->asString().value_or("");

    const YamlNode* spec = nullptr;
    bool haveApi = false, haveKind = false;
    r.fields(root, "", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "apiVersion") {
            std::string api;
            haveApi = true;
            if (r.string(v, sub, api) && api != kScenarioApiVersion)
                r.error(v, sub,
                    "Unsupported value: \"" + api + "\": supported values: \"" + kScenarioApiVersion + "\"");
        } else if (key == "kind") {
            std::string kind;
            haveKind = true;
            if (r.string(v, sub, kind) && kind != "Scenario")
                r.error(v, sub, "Unsupported value: \"" + kind + "\": supported values: \"Scenario\"");
        } else if (key == "metadata") {
            r.fields(v, sub, [&](const std::string& k, const YamlNode& mv, const std::string& ms) {
                if (k == "name") {
                    r.string(mv, ms, s.name);
                    if (!validName(s.name))
                        r.error(
                            mv, ms, "Invalid value: \"" + s.name + "\": must be a lowercase RFC 1123 label");
                    return true;
                }
                return k == "labels" || k == "annotations"; // accepted, unused
            });
        } else if (key == "spec") {
            spec = &v;
        } else {
            return false;
        }
        return true;
    });
    if (!haveApi)
        r.error(root, "apiVersion", "Required value");
    if (!haveKind)
        r.error(root, "kind", "Required value");
    if (s.name.empty() && !(root.get("metadata") && root.get("metadata")->get("name")))
        r.error(root, "metadata.name", "Required value");
    if (!spec) {
        r.error(root, "spec", "Required value");
        return std::nullopt;
    }

    parseSpec(r, *spec, s, diags);
    if (s.podMaxBackoff < s.podInitialBackoff)
        r.error(
            *spec, "spec.scheduler.podMaxBackoff", "Invalid value: must not be less than podInitialBackoff");
    for (const auto& e : s.events) {
        if (e.at > s.duration)
            diags.warning(e.pos, "Scenario", s.name, "spec.events",
                "event at " + formatDuration(e.at) + " is after the end of the run ("
                    + formatDuration(s.duration) + ") and will not happen");
    }
    std::stable_sort(s.events.begin(), s.events.end(),
        [](const ScenarioEvent& a, const ScenarioEvent& b) { return a.at < b.at; });
    if (r.errors() > 0 || diags.errorCount() > errorsBefore)
        return std::nullopt;
    return s;
}

std::optional<Scenario> loadScenario(const std::string& path, Diagnostics& diags)
{
    std::string text, error;
    if (!yamlio::readFile(path, text, &error, 64u << 20)) {
        diags.error(SourcePos { path, 0, 0 }, "Scenario", "", "", "cannot read scenario file: " + error);
        return std::nullopt;
    }
    return parseScenario(text, path, diags);
}

} // namespace drasim::scenario
