// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/scheduler_config.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace drasim::scheduler {

namespace scheduler_config {

const char* const kKind = kSchedulerConfigKind;

/// A plugin enabled at one extension point after merging, with the weight it was given there.
struct Enabled
{
    std::string name;
    std::optional<int32_t> weight;
    ConfigSite site;
};

struct Reporter
{
    Diagnostics& diags;
    size_t errors = 0;
    void error(const ConfigSite& at, const std::string& message)
    {
        diags.error(at.pos, kKind, "", at.path, message);
        ++errors;
    }
    void warning(const ConfigSite& at, const std::string& message)
    {
        diags.warning(at.pos, kKind, "", at.path, message);
    }
};

bool named(const std::vector<ConfigPlugin>& list, const std::string& name)
{
    return std::any_of(list.begin(), list.end(), [&](const ConfigPlugin& p) { return p.name == name; });
}

bool hasPoint(const PluginEntry& e, ExtensionPoint p)
{
    return (e.points & pointBit(p)) != 0;
}

// mergePluginSet (default_plugins.go): the defaults minus the disabled ones (all of them for
// "*"), a default the file enables again replaced in place by the file's entry, then the file's
// other enabled plugins in its order.
std::vector<Enabled> mergeMultiPoint(const ConfigPluginSet& custom)
{
    std::vector<Enabled> out;
    std::set<size_t> replaced;
    if (!named(custom.disabled, "*"))
        for (const PluginEntry& e : pluginRegistry()) {
            if (!e.inDefaultProfile || named(custom.disabled, e.name))
                continue;
            Enabled d { e.name, e.defaultWeight ? std::optional<int32_t>(e.defaultWeight) : std::nullopt,
                {} };
            for (size_t i = 0; i < custom.enabled.size(); ++i)
                if (custom.enabled[i].name == e.name) {
                    d = { custom.enabled[i].name, custom.enabled[i].weight, custom.enabled[i].site };
                    replaced.insert(i);
                    break;
                }
            out.push_back(std::move(d));
        }
    for (size_t i = 0; i < custom.enabled.size(); ++i)
        if (!replaced.count(i))
            out.push_back({ custom.enabled[i].name, custom.enabled[i].weight, custom.enabled[i].site });
    return out;
}

/// One profile's plugins per extension point, as the framework instantiates them.
struct Expanded
{
    std::array<std::vector<Enabled>, kExtensionPointCount> points;
};

// updatePluginList (framework.go): the plugins a profile enables at one extension point by name.
void checkSpecific(Reporter& r, ExtensionPoint point, const ConfigPluginSet& set, std::vector<Enabled>& out)
{
    const std::string iface = extensionPointInterface(point);
    for (const ConfigPlugin& p : set.enabled) {
        const PluginEntry* e = findPlugin(p.name);
        if (!e)
            r.error(p.site, iface + " \"" + p.name + "\" does not exist");
        else if (!hasPoint(*e, point))
            r.error(p.site, "plugin \"" + p.name + "\" does not extend " + iface + " plugin");
        else if (std::any_of(out.begin(), out.end(), [&](const Enabled& x) { return x.name == p.name; }))
            r.error(p.site, "plugin \"" + p.name + "\" already registered as \"" + iface + "\"");
        else
            out.push_back({ p.name, p.weight, p.site });
    }
}

// expandMultiPointPlugins (framework.go): each multiPoint plugin joins every extension point it
// implements, unless that point disables it (or "*"), or names it itself (the point's entry wins).
Expanded expand(Reporter& r, const ConfigPlugins& plugins, const std::vector<Enabled>& multiPoint)
{
    Expanded x;
    for (size_t i = 0; i < kExtensionPointCount; ++i)
        checkSpecific(r, ExtensionPoint(i), plugins.points[i], x.points[i]);
    std::set<std::string> unknownReported;
    for (size_t i = 0; i < kExtensionPointCount; ++i) {
        const ExtensionPoint point = ExtensionPoint(i);
        const ConfigPluginSet& specific = plugins.points[i];
        if (named(specific.disabled, "*"))
            continue;
        std::vector<Enabled> fromMultiPoint;
        for (const Enabled& p : multiPoint) {
            const PluginEntry* e = findPlugin(p.name);
            if (!e) {
                if (unknownReported.insert(p.name).second)
                    r.error(p.site,
                        std::string(extensionPointInterface(point)) + " \"" + p.name + "\" does not exist");
                continue;
            }
            if (!hasPoint(*e, point) || named(specific.disabled, p.name) || named(specific.enabled, p.name))
                continue;
            if (std::any_of(fromMultiPoint.begin(), fromMultiPoint.end(),
                    [&](const Enabled& y) { return y.name == p.name; })) {
                r.error(p.site,
                    "plugin \"" + p.name + "\" already registered as \"" + extensionPointInterface(point)
                        + "\"");
                continue;
            }
            fromMultiPoint.push_back(p);
        }
        // The point's own entries that override multiPoint ones come first, then multiPoint's,
        // then its other entries; drasim's terms are summed, so only membership matters here.
        x.points[i].insert(x.points[i].end(), fromMultiPoint.begin(), fromMultiPoint.end());
    }
    return x;
}

bool contains(const std::vector<Enabled>& list, const char* name)
{
    return std::any_of(list.begin(), list.end(), [&](const Enabled& e) { return e.name == name; });
}

// getScoreWeights (framework.go): the score point's own weight first, else multiPoint's; an
// unset or zero weight counts 1 ("a weight of zero is not permitted").
int64_t scoreWeight(
    const std::string& name, const ConfigPluginSet& score, const std::vector<Enabled>& multiPoint)
{
    for (const ConfigPlugin& p : score.enabled)
        if (p.name == name)
            return p.weight.value_or(0) == 0 ? 1 : *p.weight;
    for (const Enabled& p : multiPoint)
        if (p.name == name)
            return p.weight.value_or(0) == 0 ? 1 : *p.weight;
    return 1;
}

/// Warnings for plugins the file names that drasim accepts without acting on them.
void notePlugins(Reporter& r, const ConfigPlugins& plugins)
{
    std::set<std::string> noted;
    auto note = [&](const ConfigPlugin& p) {
        const PluginEntry* e = findPlugin(p.name);
        if (!e || e->model == PluginModel::Modelled || !noted.insert(p.name).second)
            return;
        if (e->model == PluginModel::NoEffect)
            r.warning(p.site,
                "plugin \"" + p.name
                    + "\" is accepted and not modelled: it has nothing to act on in a simulated cluster, so "
                      "this setting changes no result");
        else
            r.warning(p.site,
                "plugin \"" + p.name
                    + "\" is not modelled by drasim: this setting is accepted and not honoured");
    };
    auto noteSet = [&](const ConfigPluginSet& s) {
        for (const auto& p : s.enabled)
            note(p);
        for (const auto& p : s.disabled)
            if (p.name != "*") {
                if (!findPlugin(p.name) && !removedInV1(p.name))
                    r.warning(p.site, "no plugin \"" + p.name + "\" exists: disabling it changes nothing");
                note(p);
            }
    };
    noteSet(plugins.multiPoint);
    for (const auto& s : plugins.points)
        noteSet(s);
}

/// Where the file disabled `name` in `set` (by name or "*"), if it did.
const ConfigPlugin* disabledAt(const ConfigPluginSet& set, const std::string& name)
{
    for (const ConfigPlugin& p : set.disabled)
        if (p.name == name || p.name == "*")
            return &p;
    return nullptr;
}

// PodTopologySpread's and InterPodAffinity's Filter read the state their PreFilter wrote
// (getPreFilterState in filtering.go of each plugin): with the PreFilter disabled and the Filter
// enabled, kube-scheduler's Filter returns an error for every pod. drasim keeps the PreFilter for
// the Filter it runs, and says so.
void checkPreFilterKept(Reporter& r, const ConfigProfile& cp, const Expanded& x)
{
    for (const char* name : { "PodTopologySpread", "InterPodAffinity" }) {
        if (!contains(x.points[size_t(ExtensionPoint::Filter)], name)
            || contains(x.points[size_t(ExtensionPoint::PreFilter)], name))
            continue;
        const ConfigPlugin* at = disabledAt(cp.plugins.points[size_t(ExtensionPoint::PreFilter)], name);
        if (!at)
            at = disabledAt(cp.plugins.multiPoint, name);
        r.warning(at ? at->site : cp.site,
            "plugin \"" + std::string(name)
                + "\": its PreFilter is disabled while its Filter is enabled, which makes kube-scheduler's "
                  "Filter fail every pod with an error; drasim runs the PreFilter for the Filter");
    }
}

// The plugins of an extension point in the order the framework runs them
// (expandMultiPointPlugins): the point's own entries that override a multiPoint one, then
// multiPoint's, then the point's other entries.
std::vector<const Enabled*> frameworkOrder(
    const ConfigProfile& cp, const Expanded& x, const std::vector<Enabled>& multiPoint, ExtensionPoint point)
{
    const std::vector<ConfigPlugin>& own = cp.plugins.points[size_t(point)].enabled;
    const std::vector<Enabled>& all = x.points[size_t(point)];
    auto inMultiPoint = [&](const std::string& name) { return contains(multiPoint, name.c_str()); };
    std::vector<const Enabled*> ordered;
    for (int part = 0; part < 3; ++part)
        for (const Enabled& e : all) {
            const bool isOwn = named(own, e.name);
            if ((part == 0 && isOwn && inMultiPoint(e.name)) || (part == 1 && !isOwn)
                || (part == 2 && isOwn && !inMultiPoint(e.name)))
                ordered.push_back(&e);
        }
    return ordered;
}

// RunFilterPlugins stops at the first Filter that rejects a node, whose reason the node then
// reports. drasim keeps DynamicResources last (its allocator runs on the nodes the others pass) and
// says so when the configuration puts it earlier.
std::vector<FilterPlugin> filterOrderOf(
    Reporter& r, const ConfigProfile& cp, const Expanded& x, const std::vector<Enabled>& multiPoint)
{
    const std::vector<const Enabled*> ordered = frameworkOrder(cp, x, multiPoint, ExtensionPoint::Filter);
    std::vector<FilterPlugin> out;
    const Enabled* dra = nullptr;
    for (const Enabled* e : ordered) {
        const PluginEntry* entry = findPlugin(e->name);
        if (e->name == "DynamicResources")
            dra = e;
        else if (entry && entry->filter) {
            out.push_back(*entry->filter);
            if (dra) // once, at the first filter it precedes
                r.warning(dra->site.path.empty() ? cp.site : dra->site,
                    "plugin \"DynamicResources\" is ordered before \"" + e->name
                        + "\" at filter: drasim runs its Filter after the others, so a node both reject "
                          "reports \""
                        + e->name + "\"'s reason");
            dra = nullptr;
        }
    }
    if (std::is_sorted(out.begin(), out.end()))
        out.clear(); // the default profile's order
    return out;
}

// A Score plugin reads what its PreScore wrote in the cycle state. NodeResourcesFit,
// NodeResourcesBalancedAllocation and NodeAffinity compute it again when it is missing (their Score
// in fit.go, balanced_allocation.go, node_affinity.go); TaintToleration, PodTopologySpread and
// InterPodAffinity return their getPreScoreState error instead (the cycle state's "not found").
// RunScorePlugins (framework.go) stops at the first plugin that fails, in the framework's order,
// and wraps its error; schedulePod runs no Score plugin when one node is feasible.
std::string scoreErrorOf(
    Reporter& r, const ConfigProfile& cp, const Expanded& x, const std::vector<Enabled>& multiPoint)
{
    struct Reader
    {
        const char* plugin;
        const char* readError; ///< the plugin's words when the state is missing
    };
    static const Reader kReaders[] = {
        { "TaintToleration", "failed to read \"PreScoreTaintToleration\" from cycleState: not found" },
        { "PodTopologySpread", "error reading \"PreScorePodTopologySpread\" from cycleState: not found" },
        { "InterPodAffinity", "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found" },
    };
    std::string error;
    for (const Enabled* e : frameworkOrder(cp, x, multiPoint, ExtensionPoint::Score))
        for (const Reader& reader : kReaders) {
            if (e->name != reader.plugin
                || contains(x.points[size_t(ExtensionPoint::PreScore)], reader.plugin))
                continue;
            const ConfigPlugin* at = disabledAt(cp.plugins.points[size_t(ExtensionPoint::PreScore)], e->name);
            if (!at)
                at = disabledAt(cp.plugins.multiPoint, e->name);
            r.warning(at ? at->site : cp.site,
                "plugin \"" + e->name
                    + "\": its PreScore is disabled while its Score is enabled, so its Score finds no "
                      "PreScore state: kube-scheduler fails every pod with two or more feasible nodes with "
                      "an "
                      "error");
            if (error.empty())
                error = "running Score plugins: plugin \"" + e->name + "\" failed with: " + reader.readError;
        }
    return error;
}

// validatePluginSetForInvalidPlugins (validation.go): the extension points, not multiPoint.
void checkRemoved(Reporter& r, const ConfigPlugins& plugins)
{
    const std::string v1 = kSchedulerConfigApiVersion;
    for (const auto& s : plugins.points)
        for (const auto& p : s.enabled)
            if (removedInV1(p.name))
                r.error(p.site,
                    "Invalid value: \"" + p.name + "\": was invalid in version \"" + v1
                        + "\" (KubeSchedulerConfiguration is version \"" + v1 + "\")");
}

// The PodGroup cycle's plugins (topology-aware scheduling, kubernetes.io concepts page, 1.37):
// the placementScore weights, given as score weights are; NodeResourcesFit's resource weights
// "will be used in both pod-by-pod and placement scoring", its type only pod by pod (placements
// always score MostAllocated).
void placementPlugins(
    const ConfigProfile& cp, const Expanded& x, const std::vector<Enabled>& multiPoint, SchedulerProfile& p)
{
    const auto& score = x.points[size_t(ExtensionPoint::PlacementScore)];
    const ConfigPluginSet& scoreSet = cp.plugins.points[size_t(ExtensionPoint::PlacementScore)];
    p.placementPodsCountWeight
        = contains(score, "PodGroupPodsCount") ? scoreWeight("PodGroupPodsCount", scoreSet, multiPoint) : 0;
    p.placementFitWeight
        = contains(score, "NodeResourcesFit") ? scoreWeight("NodeResourcesFit", scoreSet, multiPoint) : 0;
    if (cp.fit) {
        auto fit = std::make_shared<FitScoring>();
        for (const auto& res : cp.fit->resources)
            if (res.name == "cpu" || res.name == "memory" || res.name == "ephemeral-storage")
                fit->resources.push_back(res);
        const bool plain = fit->resources.size() == 2 && fit->resources[0].name == "cpu"
            && fit->resources[0].weight == 1 && fit->resources[1].name == "memory"
            && fit->resources[1].weight == 1;
        if (!plain)
            p.placementFit = std::move(fit);
    }
    p.topologyPlacement = contains(x.points[size_t(ExtensionPoint::PlacementGenerate)], "TopologyPlacement");
    p.groupPreemption = contains(x.points[size_t(ExtensionPoint::PodGroupPostFilter)], "DefaultPreemption");
}

SchedulerProfile buildProfile(Reporter& r, const ConfigProfile& cp, const std::string& name)
{
    checkRemoved(r, cp.plugins);
    notePlugins(r, cp.plugins);
    const std::vector<Enabled> multiPoint = mergeMultiPoint(cp.plugins.multiPoint);
    const Expanded x = expand(r, cp.plugins, multiPoint);
    checkPreFilterKept(r, cp, x);
    SchedulerProfile p;
    p.schedulerName = name;
    p.percentageOfNodesToScore = cp.percentageOfNodesToScore;
    p.scoring.policy = ScoringPolicy::Default;
    p.scoring.name = "configured";
    p.scoring.alias = nullptr;
    p.scoring.summary = nullptr;
    const ConfigPluginSet& scoreSet = cp.plugins.points[size_t(ExtensionPoint::Score)];
    for (const Enabled& e : x.points[size_t(ExtensionPoint::Score)]) {
        const PluginEntry* entry = findPlugin(e.name);
        if (!entry || !entry->score)
            continue;
        ScoreTerm term = *defaultScoreTerm(*entry->score);
        term.weight = scoreWeight(e.name, scoreSet, multiPoint);
        if (*entry->score == ScorePlugin::NodeResourcesFit)
            term.strategy = cp.fitStrategy;
        if (*entry->score == ScorePlugin::NodeResourcesBalancedAllocation && cp.balanced) {
            term.fit = cp.balanced;
            if (!cp.balanced->cpuAndMemoryOnly())
                term.dependsOn = ScoreInput::PodAndNode;
        }
        if (*entry->score == ScorePlugin::NodeResourcesFit && cp.fit) {
            term.fit = cp.fit;
            // Resources beyond cpu and memory make the score depend on more of the pod than the
            // score cache's key holds: such a profile scores every feasible node.
            if (!cp.fit->cpuAndMemoryOnly())
                term.dependsOn = ScoreInput::PodAndNode;
        }
        p.scoring.terms.push_back(term);
    }
    p.filters = 0;
    for (const Enabled& e : x.points[size_t(ExtensionPoint::Filter)])
        if (const PluginEntry* entry = findPlugin(e.name); entry && entry->filter)
            p.filters |= filterBit(*entry->filter);
    p.filterOrder = filterOrderOf(r, cp, x, multiPoint);
    p.scoreError = scoreErrorOf(r, cp, x, multiPoint);
    p.preemption = contains(x.points[size_t(ExtensionPoint::PostFilter)], "DefaultPreemption");
    placementPlugins(cp, x, multiPoint, p);
    p.minCandidateNodesPercentage = cp.minCandidateNodesPercentage.value_or(p.minCandidateNodesPercentage);
    p.minCandidateNodesAbsolute = cp.minCandidateNodesAbsolute.value_or(p.minCandidateNodesAbsolute);
    for (ExtensionPoint point : { ExtensionPoint::PreFilter, ExtensionPoint::Filter })
        if (!contains(x.points[size_t(point)], "DynamicResources"))
            r.error(cp.site,
                std::string("DynamicResources is not enabled at ") + extensionPointField(point)
                    + ": drasim runs every pod through the DRA allocator and does not model a profile "
                      "without it");
    return p;
}

/// Go's %#v of the internal config.PluginSet field.Invalid prints as the bad value: the enabled
/// plugins with their weights (unset: 0), the disabled ones by name.
std::string goPluginSet(const ConfigPluginSet& set)
{
    auto list = [](const std::vector<ConfigPlugin>& plugins, bool weights) {
        if (plugins.empty())
            return std::string("[]config.Plugin(nil)");
        std::string out = "[]config.Plugin{";
        for (size_t i = 0; i < plugins.size(); ++i)
            out += (i ? ", " : "") + std::string("config.Plugin{Name:\"") + plugins[i].name
                + "\", Weight:" + std::to_string(weights ? plugins[i].weight.value_or(0) : 0) + "}";
        return out + "}";
    };
    return "config.PluginSet{Enabled:" + list(set.enabled, true) + ", Disabled:" + list(set.disabled, false)
        + "}";
}

bool samePluginSet(const ConfigPluginSet& a, const ConfigPluginSet& b)
{
    auto same = [](const std::vector<ConfigPlugin>& x, const std::vector<ConfigPlugin>& y, bool weights) {
        return std::equal(
            x.begin(), x.end(), y.begin(), y.end(), [&](const ConfigPlugin& p, const ConfigPlugin& q) {
                return p.name == q.name && (!weights || p.weight.value_or(0) == q.weight.value_or(0));
            });
    };
    return same(a.enabled, b.enabled, true) && same(a.disabled, b.disabled, false);
}

/// Go's %#v of the runtime.Unknown holding a plugin's undecoded args (field.Invalid prints the
/// struct behind the pointer); "null" when there are none.
std::string goUnknownArgs(const std::optional<std::string>& json)
{
    if (!json)
        return "null";
    static const char* const kHex = "0123456789abcdef";
    std::string raw = "[]uint8{";
    for (size_t i = 0; i < json->size(); ++i) {
        const auto c = static_cast<unsigned char>((*json)[i]);
        raw += (i ? ", 0x" : "0x");
        raw += kHex[c >> 4];
        raw += kHex[c & 0xF];
    }
    raw += "}";
    return "runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, Raw:" + raw
        + ", ContentEncoding:\"\", ContentType:\"application/json\"}";
}

// validateCommonQueueSort (validation.go): the pending pods have one queue, so every profile must
// set queueSort exactly as the first one does (the sets as written, after the v1 defaults, which
// add nothing there), and the first may enable only one. The queue sort plugin's args are compared
// only one way: each later profile's pluginConfig entry named as the first profile's first enabled
// queueSort plugin must equal the first profile's entry of that name (its last one; none when it
// has none, or when the first profile enables no queueSort plugin and so names none). A later
// profile without such an entry is not compared.
void checkCommonQueueSort(Reporter& r, const std::vector<ConfigProfile>& profiles)
{
    auto queueSortOf = [](const ConfigProfile& cp) -> const ConfigPluginSet& {
        return cp.plugins.points[size_t(ExtensionPoint::QueueSort)];
    };
    // The error is the field's (profiles[i].plugins.queueSort): located where the file wrote the
    // set, or at the profile when it wrote none.
    auto siteOf = [](const ConfigProfile& cp, const ConfigPluginSet& set, const char* suffix) {
        const SourcePos pos = set.site.pos.line > 0 ? set.site.pos
            : !set.enabled.empty()                  ? set.enabled.front().site.pos
            : !set.disabled.empty()                 ? set.disabled.front().site.pos
                                                    : cp.site.pos;
        return ConfigSite { pos, cp.site.path + suffix };
    };
    const ConfigPluginSet& canon = queueSortOf(profiles.front());
    const std::string queueSortName = canon.enabled.empty() ? std::string() : canon.enabled.front().name;
    std::optional<std::string> queueSortArgs;
    for (const ConfigPluginArgs& a : profiles.front().pluginConfig)
        if (!queueSortName.empty() && a.name == queueSortName)
            queueSortArgs = a.json;
    if (canon.enabled.size() > 1)
        r.error(siteOf(profiles.front(), canon, ".plugins.queueSort.Enabled"),
            "Invalid value: " + std::to_string(canon.enabled.size())
                + ": only one queue sort plugin can be enabled");
    for (size_t i = 1; i < profiles.size(); ++i) {
        const ConfigPluginSet& curr = queueSortOf(profiles[i]);
        if (!samePluginSet(canon, curr))
            r.error(siteOf(profiles[i], curr, ".plugins.queueSort"),
                "Invalid value: " + goPluginSet(curr) + ": must be the same for all profiles");
        for (const ConfigPluginArgs& a : profiles[i].pluginConfig)
            if (a.name == queueSortName && a.json != queueSortArgs)
                r.error(ConfigSite { a.site.pos, profiles[i].site.path + ".pluginConfig.args" },
                    "Invalid value: " + goUnknownArgs(a.json)
                        + ": queueSort must be the same for all profiles");
    }
}

} // namespace scheduler_config

std::optional<SchedulerConfiguration> buildConfiguration(const ConfigDocument& doc, Diagnostics& diags)
{
    using namespace scheduler_config;
    Reporter r { diags };
    SchedulerConfiguration out;
    // SetDefaults_KubeSchedulerConfiguration: no profile gives one; a single profile without a
    // name is the default-scheduler.
    std::vector<ConfigProfile> profiles = doc.profiles;
    if (profiles.empty())
        profiles.emplace_back();
    std::map<std::string, size_t> names;
    for (size_t i = 0; i < profiles.size(); ++i) {
        const ConfigProfile& cp = profiles[i];
        std::string name = cp.schedulerName.value_or(profiles.size() == 1 ? kDefaultSchedulerName : "");
        if (name.empty())
            r.error(cp.schedulerNameSite.path.empty()
                    ? ConfigSite { cp.site.pos, cp.site.path + ".schedulerName" }
                    : cp.schedulerNameSite,
                "Required value");
        else if (!names.emplace(name, i).second)
            r.error(cp.schedulerNameSite, "Duplicate value: \"" + name + "\"");
        out.profiles.push_back(buildProfile(r, cp, name));
    }
    checkCommonQueueSort(r, profiles);
    out.percentageOfNodesToScore = doc.percentageOfNodesToScore.value_or(0);
    out.podInitialBackoffSeconds = doc.podInitialBackoffSeconds.value_or(1);
    out.podMaxBackoffSeconds = doc.podMaxBackoffSeconds.value_or(10);
    if (out.podInitialBackoffSeconds <= 0)
        r.error(doc.podInitialBackoffSite,
            "Invalid value: " + std::to_string(out.podInitialBackoffSeconds) + ": must be greater than 0");
    if (out.podMaxBackoffSeconds < out.podInitialBackoffSeconds)
        r.error(doc.podMaxBackoffSeconds ? doc.podMaxBackoffSite : doc.podInitialBackoffSite,
            "Invalid value: " + std::to_string(out.podMaxBackoffSeconds)
                + ": must be greater than or equal to PodInitialBackoffSeconds");
    // drasim's allocator has one filterTimeout for every profile.
    for (const ConfigProfile& cp : profiles) {
        if (!cp.filterTimeoutSeconds)
            continue;
        if (out.filterTimeoutSeconds && *out.filterTimeoutSeconds != *cp.filterTimeoutSeconds)
            r.error(cp.filterTimeoutSite,
                "Invalid value: differs from another profile's: drasim applies one DynamicResources "
                "filterTimeout to every profile");
        out.filterTimeoutSeconds = cp.filterTimeoutSeconds;
    }
    if (r.errors > 0)
        return std::nullopt;
    return out;
}

SchedulerConfiguration defaultConfiguration()
{
    Diagnostics ignored;
    return *buildConfiguration(ConfigDocument {}, ignored);
}

} // namespace drasim::scheduler
