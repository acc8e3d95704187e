// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/scheduler_config_reader.h"

#include <set>

#include "core/scenario/yaml_raw_json.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::scenario {

namespace sched_config_reader {

using scheduler::ConfigPlugin;
using scheduler::ConfigPluginSet;
using scheduler::ConfigProfile;
using scheduler::ConfigSite;
using scheduler::FitScoring;
using scheduler::FitStrategy;
using yamlio::DocReader;
using yamlio::YamlNode;

ConfigSite siteOf(const YamlNode& n, const std::string& path)
{
    return { n.pos, path };
}

std::string notHonoured(const std::string& what)
{
    return what + " is not modelled by drasim: accepted and not honoured";
}

/// An int32 field (the API's type), any value: the callers check ranges with upstream's words.
std::optional<int32_t> int32Field(DocReader& r, const YamlNode& v, const std::string& path)
{
    const auto n = r.integer(v, path, INT32_MIN, INT32_MAX);
    return n ? std::optional<int32_t>(int32_t(*n)) : std::nullopt;
}

void readPluginList(
    DocReader& r, const YamlNode& list, const std::string& path, std::vector<ConfigPlugin>& out)
{
    r.items(list, path, [&](const YamlNode& item, const std::string& ip) {
        ConfigPlugin p;
        p.site = siteOf(item, ip);
        bool hasName = false;
        r.fields(item, ip, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
            if (k == "name") {
                if (auto s = r.string(v, fp)) {
                    p.name = *s;
                    p.site = siteOf(v, fp);
                    hasName = true;
                }
            } else if (k == "weight") {
                p.weight = int32Field(r, v, fp);
            } else {
                return false;
            }
            return true;
        });
        if (!hasName && item.isMap())
            r.required(item, yamlio::joinPath(ip, "name"));
        out.push_back(std::move(p));
    });
}

void readPluginSet(DocReader& r, const YamlNode& n, const std::string& path, ConfigPluginSet& out)
{
    out.site = siteOf(n, path);
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "enabled")
            readPluginList(r, v, fp, out.enabled);
        else if (k == "disabled")
            readPluginList(r, v, fp, out.disabled);
        else
            return false;
        return true;
    });
}

void readPlugins(DocReader& r, const YamlNode& n, const std::string& path, scheduler::ConfigPlugins& out)
{
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "multiPoint") {
            readPluginSet(r, v, fp, out.multiPoint);
            return true;
        }
        for (size_t i = 0; i < scheduler::kExtensionPointCount; ++i)
            if (k == scheduler::extensionPointField(scheduler::ExtensionPoint(i))) {
                readPluginSet(r, v, fp, out.points[i]);
                return true;
            }
        return false;
    });
}

// validateFunctionShape (validation_pluginargs.go); scores scaled to MaxNodeScore as
// requestedToCapacityRatioScorer does (× 100 / MaxCustomPriorityScore 10).
void readShape(
    DocReader& r, const YamlNode& n, const std::string& path, std::vector<FitScoring::ShapePoint>& out)
{
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k != "shape")
            return false;
        r.items(v, fp, [&](const YamlNode& item, const std::string& ip) {
            FitScoring::ShapePoint point;
            const YamlNode* utilization = item.get("utilization");
            r.fields(item, ip, [&](const std::string& pk, const YamlNode& pv, const std::string& pp) {
                if (pk != "utilization" && pk != "score")
                    return false;
                const auto x = int32Field(r, pv, pp);
                const int32_t max = pk == "utilization" ? 100 : 10;
                if (x && (*x < 0 || *x > max))
                    r.error(pv, pp,
                        "Invalid value: " + std::to_string(*x) + ": not in valid range [0, "
                            + std::to_string(max) + "]");
                else if (x)
                    (pk == "utilization" ? point.utilization : point.score) = pk == "score" ? *x * 10 : *x;
                return true;
            });
            if (!out.empty() && out.back().utilization >= point.utilization)
                r.error(utilization ? *utilization : item, yamlio::joinPath(ip, "utilization"),
                    "Invalid value: " + std::to_string(point.utilization)
                        + ": values must be sorted in increasing order");
            out.push_back(point);
        });
        return true;
    });
}

void readResources(
    DocReader& r, const YamlNode& n, const std::string& path, std::vector<FitScoring::Resource>& out)
{
    r.items(n, path, [&](const YamlNode& item, const std::string& ip) {
        FitScoring::Resource res;
        res.weight = 0;
        const YamlNode* weight = item.get("weight");
        r.fields(item, ip, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
            if (k == "name")
                res.name = r.string(v, fp).value_or("");
            else if (k == "weight")
                res.weight = int32Field(r, v, fp).value_or(1);
            else
                return false;
            return true;
        });
        // SetDefaults_NodeResourcesFitArgs: an unset or zero weight is 1; validateResources then
        // refuses the rest of (0, 100].
        if (res.weight == 0)
            res.weight = 1;
        if (res.weight < 0 || res.weight > 100)
            r.error(weight ? *weight : item, yamlio::joinPath(ip, "weight"),
                "Invalid value: " + std::to_string(res.weight) + ": resource weight of " + res.name
                    + " not in valid range (0, 100]");
        out.push_back(std::move(res));
    });
}

void readScoringStrategy(DocReader& r, const YamlNode& n, const std::string& path, ConfigProfile& cp)
{
    FitScoring fit;
    std::string type;
    const YamlNode* ratio = nullptr;
    std::string ratioPath;
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "type") {
            type = r.string(v, fp).value_or("");
            if (type == "LeastAllocated")
                cp.fitStrategy = FitStrategy::LeastAllocated;
            else if (type == "MostAllocated")
                cp.fitStrategy = FitStrategy::MostAllocated;
            else if (type == "RequestedToCapacityRatio")
                cp.fitStrategy = FitStrategy::RequestedToCapacityRatio;
            else
                r.unsupported(v, fp, type, { "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio" });
        } else if (k == "resources") {
            readResources(r, v, fp, fit.resources);
        } else if (k == "requestedToCapacityRatio") {
            ratio = &v;
            ratioPath = fp;
            readShape(r, v, fp, fit.shape);
        } else {
            return false;
        }
        return true;
    });
    if (type.empty() && n.isMap())
        r.error(n, yamlio::joinPath(path, "type"),
            "Unsupported value: \"\": supported values: \"LeastAllocated\", \"MostAllocated\", "
            "\"RequestedToCapacityRatio\"");
    if (cp.fitStrategy == FitStrategy::RequestedToCapacityRatio && !ratio)
        r.error(n, yamlio::joinPath(path, "requestedToCapacityRatio"),
            "Required value: must be specified when type is RequestedToCapacityRatio");
    if (cp.fitStrategy != FitStrategy::RequestedToCapacityRatio && ratio)
        r.error(*ratio, ratioPath, "Forbidden: must be nil when type is not RequestedToCapacityRatio");
    // validateFunctionShape runs for RequestedToCapacityRatio only.
    if (cp.fitStrategy == FitStrategy::RequestedToCapacityRatio && ratio && fit.shape.empty()) {
        const YamlNode* shape = ratio->get("shape");
        r.error(shape ? *shape : *ratio, yamlio::joinPath(ratioPath, "shape"),
            "Required value: at least one point must be specified");
    }
    if (fit.resources.empty())
        fit.resources = { { "cpu", 1 }, { "memory", 1 } };
    // The default resources with LeastAllocated or MostAllocated are exactly the named
    // policies' terms: keep them on that (faster) path.
    const bool defaults = fit.resources.size() == 2 && fit.resources[0].name == "cpu"
        && fit.resources[0].weight == 1 && fit.resources[1].name == "memory" && fit.resources[1].weight == 1;
    if (!defaults || cp.fitStrategy == FitStrategy::RequestedToCapacityRatio)
        cp.fit = std::make_shared<const FitScoring>(std::move(fit));
}

/// Whether the args key is the envelope every args object may carry.
bool argsEnvelope(const std::string& k)
{
    return k == "apiVersion" || k == "kind";
}

void readFitArgs(DocReader& r, const YamlNode& n, const std::string& path, ConfigProfile& cp)
{
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "scoringStrategy")
            readScoringStrategy(r, v, fp, cp);
        else if (k == "ignoredResources" || k == "ignoredResourceGroups") {
            if (r.isList(v, fp) && !v.items.empty())
                r.warning(v, fp, notHonoured(k));
        } else
            return argsEnvelope(k);
        return true;
    });
}

// ValidateDefaultPreemptionArgs (validation_pluginargs.go): each field in its range, and not both
// zero (with SetDefaults_DefaultPreemptionArgs' 10 and 100 for the one not given).
void readPreemptionArgs(DocReader& r, const YamlNode& n, const std::string& path, ConfigProfile& cp)
{
    const YamlNode* percentageNode = nullptr;
    const YamlNode* absoluteNode = nullptr;
    std::string percentagePath, absolutePath;
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "minCandidateNodesPercentage") {
            cp.minCandidateNodesPercentage = int32Field(r, v, fp);
            percentageNode = &v;
            percentagePath = fp;
            if (const auto p = cp.minCandidateNodesPercentage; p && (*p < 0 || *p > 100))
                r.error(v, fp, "Invalid value: " + std::to_string(*p) + ": not in valid range [0, 100]");
        } else if (k == "minCandidateNodesAbsolute") {
            cp.minCandidateNodesAbsolute = int32Field(r, v, fp);
            absoluteNode = &v;
            absolutePath = fp;
            if (const auto a = cp.minCandidateNodesAbsolute; a && *a < 0)
                r.error(v, fp, "Invalid value: " + std::to_string(*a) + ": not in valid range [0, inf)");
        } else
            return argsEnvelope(k);
        return true;
    });
    if (percentageNode && absoluteNode && cp.minCandidateNodesPercentage == 0
        && cp.minCandidateNodesAbsolute == 0) {
        r.error(*percentageNode, percentagePath,
            "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute");
        r.error(*absoluteNode, absolutePath,
            "Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage");
    }
}

void readDraArgs(DocReader& r, const YamlNode& n, const std::string& path, ConfigProfile& cp)
{
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "filterTimeout") {
            // ValidateDynamicResourcesArgs' words for a negative duration (drasim's duration
            // grammar has none).
            if (v.isScalar() && !v.scalar.empty() && v.scalar.front() == '-') {
                r.error(v, fp, "Invalid value: \"" + v.scalar + "\": must be zero or positive");
            } else if (const auto s = r.duration(v, fp, Forever::Rejected)) {
                cp.filterTimeoutSeconds = *s;
                cp.filterTimeoutSite = siteOf(v, fp);
            }
        } else if (k == "bindingTimeout") {
            if (const auto s = r.duration(v, fp, Forever::Rejected)) {
                if (*s < 1)
                    r.error(v, fp, "Invalid value: must be at least 1 second");
                else
                    r.warning(v, fp, notHonoured("bindingTimeout (binding conditions are not awaited)"));
            }
        } else
            return argsEnvelope(k);
        return true;
    });
}

// ValidateNodeResourcesBalancedAllocationArgs (validation_pluginargs.go): names once, weights 1;
// SetDefaults_NodeResourcesBalancedAllocationArgs: no resources are cpu and memory.
void readBalancedArgs(DocReader& r, const YamlNode& n, const std::string& path, ConfigProfile& cp)
{
    r.fields(n, path, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k != "resources")
            return argsEnvelope(k);
        std::vector<FitScoring::Resource> list;
        readResources(r, v, fp, list);
        std::set<std::string> seen;
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string ip = yamlio::indexPath(fp, i);
            const YamlNode& item = v.items[i];
            const YamlNode* nameNode = item.get("name");
            const YamlNode* weightNode = item.get("weight");
            if (!seen.insert(list[i].name).second)
                r.error(nameNode ? *nameNode : item, yamlio::joinPath(ip, "name"),
                    "Duplicate value: \"" + list[i].name + "\"");
            if (list[i].weight != 1)
                r.error(weightNode ? *weightNode : item, yamlio::joinPath(ip, "weight"),
                    "Invalid value: " + std::to_string(list[i].weight) + ": must be 1");
        }
        // cpu and memory in that order are the default computation: keep it on that path.
        const bool defaults = list.size() == 2 && list[0].name == "cpu" && list[1].name == "memory";
        if (!list.empty() && !defaults) {
            FitScoring balanced;
            balanced.resources = std::move(list);
            cp.balanced = std::make_shared<const FitScoring>(std::move(balanced));
        }
        return true;
    });
}

/// Args of a plugin drasim does not act on: their fields are accepted as written.
void readOtherArgs(DocReader& r, const YamlNode& n, const std::string& path, const std::string& plugin)
{
    if (r.isMap(n, path) && !n.entries.empty())
        r.warning(n, path, notHonoured(plugin + " args"));
}

void readPluginConfig(DocReader& r, const YamlNode& list, const std::string& path, ConfigProfile& cp)
{
    std::set<std::string> seen;
    r.items(list, path, [&](const YamlNode& item, const std::string& ip) {
        std::string name;
        const YamlNode* args = nullptr;
        const YamlNode* nameNode = item.get("name");
        std::string argsPath;
        r.fields(item, ip, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
            if (k == "name")
                name = r.string(v, fp).value_or("");
            else if (k == "args") {
                args = &v;
                argsPath = fp;
            } else
                return false;
            return true;
        });
        if (name.empty()) {
            r.required(item, yamlio::joinPath(ip, "name"));
            return;
        }
        if (!seen.insert(name).second)
            r.error(item, ip, "Duplicate value: \"" + name + "\"");
        // For validateCommonQueueSort, which compares a queue sort plugin's args across profiles.
        scheduler::ConfigPluginArgs entry { name, std::nullopt, siteOf(item, ip) };
        if (args && !args->isNull()) {
            entry.json = rawJsonOf(*args);
            entry.site = siteOf(*args, argsPath);
        }
        cp.pluginConfig.push_back(std::move(entry));
        if (scheduler::removedInV1(name))
            r.error(item, ip,
                "Invalid value: \"" + name + "\": was invalid in version \"kubescheduler.config.k8s.io/v1\" "
                    + "(KubeSchedulerConfiguration is version \"kubescheduler.config.k8s.io/v1\")");
        else if (!scheduler::findPlugin(name))
            r.error(
                *nameNode, yamlio::joinPath(ip, "name"), "Invalid value: \"" + name + "\": no such plugin");
        if (!args || args->isNull())
            return;
        if (name == "NodeResourcesFit")
            readFitArgs(r, *args, argsPath, cp);
        else if (name == "DefaultPreemption")
            readPreemptionArgs(r, *args, argsPath, cp);
        else if (name == "DynamicResources")
            readDraArgs(r, *args, argsPath, cp);
        else if (name == "NodeResourcesBalancedAllocation")
            readBalancedArgs(r, *args, argsPath, cp);
        else if (scheduler::findPlugin(name))
            readOtherArgs(r, *args, argsPath, name);
    });
}

void checkPercentage(DocReader& r, const YamlNode& v, const std::string& path, std::optional<int32_t> p)
{
    if (p && (*p < 0 || *p > 100))
        r.error(v, path, "Invalid value: " + std::to_string(*p) + ": not in valid range [0-100]");
}

ConfigProfile readProfile(DocReader& r, const YamlNode& item, const std::string& ip)
{
    ConfigProfile cp;
    cp.site = siteOf(item, ip);
    r.fields(item, ip, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        if (k == "schedulerName") {
            cp.schedulerName = r.string(v, fp).value_or("");
            cp.schedulerNameSite = siteOf(v, fp);
        } else if (k == "percentageOfNodesToScore") {
            cp.percentageOfNodesToScore = int32Field(r, v, fp);
            checkPercentage(r, v, fp, cp.percentageOfNodesToScore);
        } else if (k == "plugins") {
            readPlugins(r, v, fp, cp.plugins);
        } else if (k == "pluginConfig") {
            readPluginConfig(r, v, fp, cp);
        } else {
            return false;
        }
        return true;
    });
    return cp;
}

/// Fields of kube-scheduler's process that place no pod: accepted as written.
bool processField(const std::string& k)
{
    static const std::set<std::string> keys { "leaderElection", "clientConnection", "healthzBindAddress",
        "metricsBindAddress", "enableProfiling", "enableContentionProfiling", "delayCacheUntilActive" };
    return keys.count(k) > 0;
}

bool readTopField(DocReader& r, const std::string& k, const YamlNode& v, const std::string& fp,
    scheduler::ConfigDocument& doc)
{
    if (k == "apiVersion") {
        const std::string s = r.string(v, fp).value_or("");
        if (s != scheduler::kSchedulerConfigApiVersion)
            r.unsupported(v, fp, s, { scheduler::kSchedulerConfigApiVersion });
    } else if (k == "kind") {
        const std::string s = r.string(v, fp).value_or("");
        if (s != scheduler::kSchedulerConfigKind)
            r.unsupported(v, fp, s, { scheduler::kSchedulerConfigKind });
    } else if (k == "parallelism") {
        if (const auto p = int32Field(r, v, fp); p && *p <= 0)
            r.error(v, fp,
                "Invalid value: " + std::to_string(*p) + ": should be an integer value greater than zero");
    } else if (k == "percentageOfNodesToScore") {
        doc.percentageOfNodesToScore = int32Field(r, v, fp);
        checkPercentage(r, v, fp, doc.percentageOfNodesToScore);
    } else if (k == "podInitialBackoffSeconds") {
        doc.podInitialBackoffSeconds = r.integer(v, fp);
        doc.podInitialBackoffSite = siteOf(v, fp);
    } else if (k == "podMaxBackoffSeconds") {
        doc.podMaxBackoffSeconds = r.integer(v, fp);
        doc.podMaxBackoffSite = siteOf(v, fp);
    } else if (k == "profiles") {
        r.items(v, fp, [&](const YamlNode& item, const std::string& ip) {
            doc.profiles.push_back(readProfile(r, item, ip));
        });
    } else if (k == "extenders") {
        if (r.isList(v, fp) && !v.items.empty())
            r.warning(v, fp, notHonoured("a scheduler extender"));
    } else {
        return processField(k);
    }
    return true;
}

} // namespace sched_config_reader

std::optional<scheduler::SchedulerConfiguration> readSchedulerConfiguration(
    const yamlio::YamlNode& doc, const std::string& base, Diagnostics& diags)
{
    using namespace sched_config_reader;
    const size_t before = diags.errorCount();
    DocReader r(diags, scheduler::kSchedulerConfigKind);
    scheduler::ConfigDocument d;
    d.site = siteOf(doc, base);
    d.podInitialBackoffSite = d.podMaxBackoffSite
        = siteOf(doc, yamlio::joinPath(base, "podInitialBackoffSeconds"));
    bool hasApiVersion = false, hasKind = false;
    r.fields(doc, base, [&](const std::string& k, const YamlNode& v, const std::string& fp) {
        hasApiVersion |= k == "apiVersion";
        hasKind |= k == "kind";
        return readTopField(r, k, v, fp, d);
    });
    if (doc.isMap() && !hasApiVersion)
        r.required(doc, yamlio::joinPath(base, "apiVersion"));
    if (doc.isMap() && !hasKind)
        r.required(doc, yamlio::joinPath(base, "kind"));
    if (diags.errorCount() > before)
        return std::nullopt;
    // Every site's path was joined onto `base` as it was read.
    auto config = scheduler::buildConfiguration(d, diags);
    return config;
}

std::optional<scheduler::SchedulerConfiguration> loadSchedulerConfiguration(
    const std::string& path, Diagnostics& diags)
{
    std::string text, error;
    if (!yamlio::readFile(path, text, &error, 16u << 20)) {
        diags.error(SourcePos { path, 0, 0 }, scheduler::kSchedulerConfigKind, "", "",
            "cannot read scheduler configuration: " + error);
        return std::nullopt;
    }
    const size_t before = diags.errorCount();
    const std::vector<yamlio::YamlNode> docs = yamlio::parseYamlDocuments(text, path, diags);
    if (diags.errorCount() > before)
        return std::nullopt;
    if (docs.size() != 1) {
        diags.error(SourcePos { path, docs.empty() ? 0 : docs[1].pos.line, 0 },
            scheduler::kSchedulerConfigKind, "", "",
            "expected one KubeSchedulerConfiguration document, found " + std::to_string(docs.size()));
        return std::nullopt;
    }
    return readSchedulerConfiguration(docs.front(), "", diags);
}

} // namespace drasim::scenario
