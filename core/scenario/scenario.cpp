// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/scenario.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>

#include "core/scenario/named_files_check.h"
#include "core/scenario/pool_failures_yaml.h"
#include "core/scenario/rack_layout_yaml.h"
#include "core/scenario/scheduler_config_reader.h"
#include "core/scheduler/scoring_profile.h"
#include "core/workload/workload_spec_yaml.h"
#include "core/yamlio/doc_reader.h"
#include "core/yamlio/names.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

using sim::formatDuration;
using sim::InjectedEvent;

namespace {

using yamlio::DocReader;
using yamlio::YamlNode;

/// A duration field of simulated time (whole milliseconds).
bool readDuration(DocReader& r, const YamlNode& n, const std::string& path, SimTime& out)
{
    const auto ms = r.milliseconds(n, path);
    if (ms)
        out = *ms;
    return ms.has_value();
}

/// A string field; false (reported) when the node is not a string.
bool readString(DocReader& r, const YamlNode& n, const std::string& path, std::string& out)
{
    const auto s = r.string(n, path);
    if (s)
        out = *s;
    return s.has_value();
}

void parsePool(DocReader& r, const YamlNode& n, const std::string& path, NodePoolSpec& pool)
{
    pool.pos = n.pos;
    pool.path = path;
    bool haveName = false, haveShape = false, haveCount = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "name") {
            haveName = readString(r, v, sub, pool.name);
            if (haveName && !yamlio::checkDnsLabel(pool.name).empty())
                r.invalid(v, sub, pool.name,
                    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                    "and "
                    "must start and end with an alphanumeric character");
        } else if (key == "shape") {
            haveShape = readString(r, v, sub, pool.shape);
        } else if (key == "count") {
            const auto c = r.integer(v, sub, 0, 1'000'000);
            haveCount = c.has_value();
            pool.count = int(c.value_or(0));
        } else if (key == "namePrefix") {
            readString(r, v, sub, pool.namePrefix);
        } else if (key == "pricePerHour") {
            if (const auto p = r.number(v, sub, 0))
                pool.pricePerHour = *p;
        } else if (key == "layout") {
            parseRackLayout(r, v, sub, pool.layout);
        } else if (key == "failures") {
            parseFailureProcess(r, v, sub, pool.failures.failures.emplace());
        } else if (key == "spot") {
            parseSpotReclaim(r, v, sub, pool.failures.spot.emplace());
        } else {
            return false;
        }
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveName && !n.get("name"))
        r.required(n, path + ".name");
    if (!haveShape && !n.get("shape"))
        r.required(n, path + ".shape");
    if (!haveCount && !n.get("count"))
        r.required(n, path + ".count");
    if (pool.namePrefix.empty())
        pool.namePrefix = pool.name;
}

/// The selector of a DeviceTaintRule event: the fields of a DeviceTaintSelector (driver, pool,
/// device), each optional; {} selects every device.
void parseTaintSelector(
    DocReader& r, const YamlNode& n, const std::string& path, api::DeviceTaintSelector& out)
{
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        std::optional<std::string>* target = key == "driver" ? &out.driver
            : key == "pool"                                  ? &out.pool
            : key == "device"                                ? &out.device
                                                             : nullptr;
        if (!target)
            return false;
        std::string value;
        if (readString(r, v, sub, value))
            *target = std::move(value);
        return true;
    });
}

/// The fields each event type needs, and the taint effects it allows.
void checkEventFields(
    DocReader& r, const YamlNode& n, const std::string& path, const std::string& type, ScenarioEvent& e)
{
    auto need = [&](const std::string& value, const char* field) {
        if (value.empty())
            r.error(n, path + "." + field, std::string("Required value: needed by type ") + type);
    };
    auto effectOneOf = [&](std::initializer_list<std::string_view> allowed) {
        if (std::find(allowed.begin(), allowed.end(), e.taint.effect) == allowed.end())
            r.unsupported(*n.get("effect"), path + ".effect", e.taint.effect, allowed);
    };
    auto requiredEffectOneOf = [&](std::initializer_list<std::string_view> allowed) {
        if (e.taint.effect.empty())
            r.required(n, path + ".effect");
        else
            effectOneOf(allowed);
    };
    using Type = InjectedEvent::Type;
    switch (e.type) {
    case Type::NodeFailure:
    case Type::NodeReturn:
        need(e.node, "node");
        break;
    case Type::DeviceTaint:
    case Type::DeviceUntaint:
        need(e.node, "node");
        need(e.taint.key, "key");
        if (e.type == Type::DeviceTaint) {
            if (e.taint.effect.empty())
                e.taint.effect = "NoSchedule";
            effectOneOf({ "NoSchedule", "NoExecute", "None" });
        }
        break;
    case Type::NodeTaint:
    case Type::NodeUntaint:
        need(e.node, "node");
        need(e.taint.key, "key");
        if (e.type == Type::NodeTaint) {
            requiredEffectOneOf({ "NoExecute", "NoSchedule", "PreferNoSchedule" });
        }
        break;
    case Type::DeviceTaintRule:
    case Type::DeviceTaintRuleDelete:
        need(e.poolName, "name");
        if (e.type == Type::DeviceTaintRule) {
            need(e.taint.key, "key");
            // A rule without a selector matches no device: almost certainly a mistake here.
            if (!e.selector)
                r.error(n, path + ".selector",
                    "Required value: needed by type DeviceTaintRule ({} selects every device)");
            requiredEffectOneOf({ "NoSchedule", "NoExecute", "None" });
        }
        break;
    case Type::AddNodePool:
        if (!n.get("pool"))
            r.error(n, path + ".pool", "Required value: needed by type AddNodePool");
        break;
    case Type::RemoveNodePool:
        need(e.poolName, "name");
        break;
    case Type::PodGroupMinCount:
        need(e.workload, "workload");
        if (!n.get("minCount"))
            r.required(n, path + ".minCount");
        break;
    }
}

void parseEvent(DocReader& r, const YamlNode& n, const std::string& path, ScenarioEvent& e)
{
    e.pos = n.pos;
    e.path = path;
    std::string type;
    const YamlNode* typeNode = n.isMap() ? n.get("type") : nullptr;
    bool haveAt = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "at")
            haveAt = readDuration(r, v, sub, e.at);
        else if (key == "type")
            readString(r, v, sub, type);
        else if (key == "node")
            readString(r, v, sub, e.node);
        else if (key == "driver")
            readString(r, v, sub, e.driver);
        else if (key == "device")
            readString(r, v, sub, e.device);
        else if (key == "key")
            readString(r, v, sub, e.taint.key);
        else if (key == "value")
            readString(r, v, sub, e.taint.value);
        else if (key == "effect")
            readString(r, v, sub, e.taint.effect);
        else if (key == "name")
            readString(r, v, sub, e.poolName);
        else if (key == "pool") {
            parsePool(r, v, sub, e.newPool);
            // Failures are drawn over the whole run for the nodes present from its start.
            if (e.newPool.failures.any() && v.isMap())
                r.error(*(v.get("failures") ? v.get("failures") : v.get("spot")),
                    sub + (v.get("failures") ? ".failures" : ".spot"),
                    "Forbidden: failure settings are only supported on spec.cluster.nodePools");
        } else if (key == "selector")
            parseTaintSelector(r, v, sub, e.selector.emplace());
        else if (key == "workload")
            readString(r, v, sub, e.workload);
        else if (key == "minCount")
            // A gang's minCount: at least 1, an int32 in the API (scheduling.k8s.io GangSchedulingPolicy).
            e.minCount = int32_t(r.integer(v, sub, 1, std::numeric_limits<int32_t>::max()).value_or(0));
        else
            return false;
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveAt && !n.get("at"))
        r.required(n, path + ".at");
    if (!typeNode) {
        r.required(n, path + ".type");
        return;
    }
    const std::optional<InjectedEvent::Type> parsed = sim::parseInjectedEventType(type);
    if (!parsed) {
        std::string list;
        for (const std::string& t : sim::injectedEventTypeNames())
            list += std::string(list.empty() ? "" : ", ") + "\"" + t + "\"";
        r.error(*typeNode, path + ".type", "Unsupported value: \"" + type + "\": supported values: " + list);
        return;
    }
    e.type = *parsed;
    checkEventFields(r, n, path, type, e);
}

void parseCluster(DocReader& r, const YamlNode& n, const std::string& path, Scenario& s, Diagnostics& diags)
{
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "catalog") {
            readString(r, v, sub, s.catalog);
        } else if (key == "shapes") {
            s.shapeFiles = r.paths(v, sub);
        } else if (key == "manifests") {
            s.manifests = r.paths(v, sub);
        } else if (key == "failures") {
            parseFailuresByDeviceModel(r, v, sub, s.failuresByDeviceModel);
        } else if (key == "nodePools") {
            std::set<std::string> names;
            r.items(v, sub, [&](const YamlNode& item, const std::string& ip) {
                NodePoolSpec pool;
                parsePool(r, item, ip, pool);
                if (!pool.name.empty() && !names.insert(pool.name).second)
                    r.duplicate(item, ip + ".name", pool.name);
                s.nodePools.push_back(std::move(pool));
            });
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

/// spec.scheduler.featureGates: every gate the cluster's Kubernetes version knows, with
/// kube-scheduler's answers for unknown, locked and dependent gates (api::FeatureGates). The map
/// is applied once spec.scheduler.kubernetesVersion is known, whatever the key order.
void applyFeatureGates(DocReader& r, const YamlNode& v, const std::string& sub, Scenario& s)
{
    if (!r.isMap(v, sub))
        return;
    for (const auto& [k, gv] : v.entries) {
        const std::string name = k.asString().value_or(k.scalar);
        const std::string gs = yamlio::joinPath(sub, name);
        if (const auto on = r.boolean(gv, gs))
            if (std::string e = s.featureGates.set(name, *on); !e.empty())
                r.error(k, gs, e);
    }
    for (const std::string& e : s.featureGates.dependencyErrors())
        r.error(v, sub, e);
}

void parseKubernetesVersion(DocReader& r, const YamlNode& v, const std::string& sub, Scenario& s)
{
    const auto text = r.string(v, sub);
    if (!text)
        return;
    if (const auto version = api::parseKubernetesVersion(*text)) {
        s.featureGates = api::FeatureGates(*version);
        s.kubernetesVersionSet = true;
    } else
        r.unsupported(v, sub, *text, { "1.35", "1.36", "1.37" });
}

/// spec.scheduler.config / configFile: the configuration, whose settings replace the fields it
/// sets (written beside it, they are refused).
void applySchedulerConfig(DocReader& r, const YamlNode& v, const std::string& sub, Scenario& s)
{
    const YamlNode* inlineDoc = v.get("config");
    const YamlNode* file = v.get("configFile");
    if (!inlineDoc && !file)
        return;
    if (inlineDoc && file) {
        r.error(*file, yamlio::joinPath(sub, "configFile"), "Forbidden: may not be set together with config");
        return;
    }
    std::optional<scheduler::SchedulerConfiguration> config;
    if (inlineDoc) {
        s.schedulerConfigDocument = workload::yamlToDataValue(*inlineDoc);
        config = readSchedulerConfiguration(*inlineDoc, yamlio::joinPath(sub, "config"), r.diags());
    } else if (auto path = r.string(*file, yamlio::joinPath(sub, "configFile"))) {
        s.schedulerConfigFile = *path;
        config = loadSchedulerConfiguration(resolvePath(s.baseDir, *path), r.diags());
    }
    for (const char* key : { "scoring", "percentageOfNodesToScore", "podInitialBackoff", "podMaxBackoff" })
        if (const YamlNode* given = v.get(key))
            r.error(*given, yamlio::joinPath(sub, key),
                std::string("Forbidden: set by the scheduler configuration (")
                    + (inlineDoc ? "config" : "configFile") + "); not both");
    if (!config)
        return;
    s.percentageOfNodesToScore = config->percentageOfNodesToScore;
    s.podInitialBackoff = config->podInitialBackoffSeconds * sim::kSecond;
    s.podMaxBackoff = config->podMaxBackoffSeconds * sim::kSecond;
    s.schedulerConfig = std::make_shared<const scheduler::SchedulerConfiguration>(std::move(*config));
}

void parseScheduler(DocReader& r, const YamlNode& v, const std::string& sub, Scenario& s)
{
    if (const YamlNode* version = v.get("kubernetesVersion"))
        parseKubernetesVersion(r, *version, yamlio::joinPath(sub, "kubernetesVersion"), s);
    r.fields(v, sub, [&](const std::string& k, const YamlNode& sv, const std::string& ss) {
        if (k == "config" || k == "configFile") {
            return true; // applySchedulerConfig, once the other fields are read
        } else if (k == "scoring") {
            if (readString(r, sv, ss, s.scoring) && !scheduler::parseScoringPolicy(s.scoring))
                r.error(sv, ss, scheduler::unknownScoringPolicyMessage(s.scoring));
        } else if (k == "tieBreak") {
            std::string name;
            if (readString(r, sv, ss, name)) {
                if (const auto tieBreak = scheduler::parseTieBreak(name))
                    s.tieBreak = *tieBreak;
                else
                    r.unsupported(sv, ss, name, { "node-name", "seeded-order" });
            }
        } else if (k == "percentageOfNodesToScore") {
            // The range KubeSchedulerConfiguration's validation accepts.
            if (const auto p = r.integer(sv, ss, 0, 100))
                s.percentageOfNodesToScore = int32_t(*p);
        } else if (k == "podInitialBackoff") {
            readDuration(r, sv, ss, s.podInitialBackoff);
        } else if (k == "podMaxBackoff") {
            readDuration(r, sv, ss, s.podMaxBackoff);
        } else if (k == "featureGates") {
            applyFeatureGates(r, sv, ss, s);
        } else if (k == "queueingHints") {
            if (const auto on = r.boolean(sv, ss))
                s.queueingHints = *on;
        } else if (k == "whatIf") {
            r.fields(sv, ss, [&](const std::string& wk, const YamlNode& wv, const std::string& ws) {
                if (wk != "draPreemption")
                    return false;
                if (const auto on = r.boolean(wv, ws))
                    s.whatIfDraPreemption = *on;
                return true;
            });
        } else if (k != "kubernetesVersion") {
            return false;
        }
        return true;
    });
    if (v.isMap())
        applySchedulerConfig(r, v, sub, s);
}

void parseSpec(DocReader& r, const YamlNode& spec, Scenario& s, Diagnostics& diags)
{
    r.fields(spec, "spec", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "seed") {
            if (const auto seed = r.integer(v, sub, 0))
                s.seed = uint64_t(*seed);
        } else if (key == "duration") {
            if (readDuration(r, v, sub, s.duration) && s.duration <= 0)
                r.error(v, sub, "Invalid value: must be greater than 0");
        } else if (key == "metricInterval") {
            readDuration(r, v, sub, s.metricInterval);
        } else if (key == "cluster") {
            parseCluster(r, v, sub, s, diags);
        } else if (key == "resources") {
            s.resources = r.paths(v, sub);
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
            r.items(v, sub, [&](const YamlNode& item, const std::string& ip) {
                ScenarioEvent e;
                parseEvent(r, item, ip, e);
                s.events.push_back(std::move(e));
            });
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
    DocReader r(diags, "Scenario");
    const yamlio::DocumentFrame frame
        = yamlio::readDocumentFrame(r, docs, file, kScenarioApiVersion, "Scenario");
    if (frame.root)
        s.pos = frame.root->pos;
    s.name = r.name();
    if (!frame.spec)
        return std::nullopt;
    const YamlNode* spec = frame.spec;

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
    s.pathPositions = namedPathPositions(s, *frame.root);
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
