// SPDX-License-Identifier: Apache-2.0
#include "core/planner/study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/scenario/rack_layout_yaml.h"
#include "core/sim/sim_time.h"
#include "core/yamlio/doc_reader.h"
#include "core/yamlio/names.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::planner {

namespace {

using yamlio::YamlNode;

const char* const kDistanceClasses[] = { "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS" };

std::string trimNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

using yamlio::DocReader;

/// A price, a power draw or a budget: a finite number of at least 0.
std::optional<double> amount(DocReader& r, const YamlNode& n, const std::string& path)
{
    auto v = r.number(n, path, 0);
    if (v && !std::isfinite(*v)) {
        r.invalid(n, path, n.scalar, "must be a finite number");
        return std::nullopt;
    }
    return v;
}

/// "12.5%" as 0.125, or a plain number; nullopt when the text is neither.
std::optional<double> percentOrNumber(const YamlNode& n)
{
    if (!n.isScalar())
        return std::nullopt;
    const std::string& text = n.scalar;
    if (!text.empty() && text.back() == '%') {
        const std::string digits = text.substr(0, text.size() - 1);
        char* end = nullptr;
        const double v = std::strtod(digits.c_str(), &end);
        if (digits.empty() || !end || *end != '\0')
            return std::nullopt;
        return v / 100.0;
    }
    return n.asDouble();
}

/// "1%", "12.5%" or a plain fraction in [0, 1].
std::optional<double> fraction(DocReader& r, const YamlNode& n, const std::string& path)
{
    auto v = percentOrNumber(n);
    if (!v || !std::isfinite(*v) || *v < 0 || *v > 1) {
        r.invalid(n, path, n.isScalar() ? n.scalar : std::string(),
            "must be a percentage (\"1%\") or a fraction between 0 and 1");
        return std::nullopt;
    }
    return v;
}

/// A growth factor: "10%" or 0.1; any amount above 0 (200% doubles the load twice over).
std::optional<double> growth(DocReader& r, const YamlNode& n, const std::string& path)
{
    auto v = percentOrNumber(n);
    if (!v || !std::isfinite(*v) || *v <= 0 || *v > 100) {
        r.invalid(n, path, n.isScalar() ? n.scalar : std::string(),
            "must be a load growth above 0 (\"25%\" or 0.25)");
        return std::nullopt;
    }
    return v;
}

/// A bound on simulated time, in seconds (the simulator's whole milliseconds).
std::optional<double> seconds(DocReader& r, const YamlNode& n, const std::string& path)
{
    auto ms = r.milliseconds(n, path);
    if (!ms)
        return std::nullopt;
    return sim::toSeconds(*ms);
}

bool validName(const std::string& s)
{
    return yamlio::checkDnsLabel(s).empty();
}

/// A list that must hold at least one item: f(item, path) for each.
template <class F>
void nonEmptyList(DocReader& r, const YamlNode& n, const std::string& path, const char* what, F&& f)
{
    if (n.isSequence() && n.items.empty())
        r.error(n, path, std::string("Required value: at least one ") + what);
    else
        r.items(n, path, f);
}

void parseCandidate(DocReader& r, const YamlNode& n, const std::string& path, CandidateShape& c)
{
    c.pos = n.pos;
    bool haveShape = false;
    r.fields(n, path,
        "shape, name, maxNodes, purchaseUSD, perHourUSD, powerWatts, rackSlots, layout, wholeRacks",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "shape") {
                if (auto s = r.string(v, sub)) {
                    c.shape = *s;
                    haveShape = !s->empty();
                    if (!haveShape)
                        r.required(v, sub);
                }
            } else if (key == "name") {
                if (auto s = r.string(v, sub)) {
                    c.name = *s;
                    if (!validName(c.name))
                        r.invalid(v, sub, c.name, "must be a lowercase RFC 1123 label");
                }
            } else if (key == "maxNodes") {
                if (auto i = r.integer(v, sub, 1, 100000))
                    c.maxNodes = int(*i);
            } else if (key == "purchaseUSD") {
                c.purchaseUsd = amount(r, v, sub);
            } else if (key == "perHourUSD") {
                c.perHourUsd = amount(r, v, sub);
            } else if (key == "powerWatts") {
                c.powerWatts = amount(r, v, sub);
            } else if (key == "rackSlots") {
                if (auto i = r.integer(v, sub, 0, 1000))
                    c.rackSlots = int(*i);
            } else if (key == "layout") {
                scenario::parseRackLayout(r, v, sub, c.layout);
            } else if (key == "wholeRacks") {
                c.wholeRacks = r.boolean(v, sub).value_or(false);
            } else {
                return false;
            }
            return true;
        });
    if (n.isMap() && !haveShape && !n.get("shape"))
        r.required(n, path + ".shape");
    if (c.name.empty() && haveShape && validName(c.shape))
        c.name = c.shape;
    else if (c.name.empty() && haveShape)
        r.error(n, path + ".name",
            "Required value: the shape name \"" + c.shape + "\" is not a valid pool name; give one");
}

/// The metric of a service level, which decides the other fields it takes; nullopt (reported)
/// when missing or unknown.
std::optional<Metric> readMetric(DocReader& r, const YamlNode& n, const std::string& path)
{
    const YamlNode* node = n.get("metric");
    if (!node) {
        r.error(n, path, "Required value: one of wait, pending, neverScheduled, placement");
        return std::nullopt;
    }
    auto metric = r.string(*node, path);
    if (!metric)
        return std::nullopt;
    if (*metric == "wait")
        return Metric::Wait;
    if (*metric == "pending")
        return Metric::Pending;
    if (*metric == "neverScheduled")
        return Metric::NeverScheduled;
    if (*metric == "placement")
        return Metric::Placement;
    r.unsupported(*node, path, *metric, { "wait", "pending", "neverScheduled", "placement" });
    return std::nullopt;
}

void parseServiceLevel(DocReader& r, const YamlNode& n, const std::string& path, ServiceLevel& sl)
{
    sl.pos = n.pos;
    if (!r.isMap(n, path))
        return;
    const auto metric = readMetric(r, n, path + ".metric");
    if (!metric)
        return;
    sl.metric = *metric;
    const char* known = sl.metric == Metric::Wait ? "metric, percentile, workload, priorityClass, max"
        : sl.metric == Metric::Placement          ? "metric, within, min"
                                                  : "metric, workload, priorityClass, max";
    bool haveBound = false;
    r.fields(n, path, known, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "metric")
            return true;
        if (key == "percentile" && sl.metric == Metric::Wait) {
            if (auto p = r.number(v, sub)) {
                if (!(*p > 0 && *p <= 100))
                    r.invalid(v, sub, v.scalar, "must be above 0 and at most 100");
                sl.percentile = *p;
            }
        } else if (key == "workload" && sl.metric != Metric::Placement) {
            if (auto s = r.string(v, sub))
                sl.workload = *s;
        } else if (key == "priorityClass" && sl.metric != Metric::Placement) {
            if (auto s = r.string(v, sub))
                sl.priorityClass = *s;
        } else if (key == "within" && sl.metric == Metric::Placement) {
            if (auto s = r.string(v, sub)) {
                if (distanceRank(*s) < 0)
                    r.unsupported(v, sub, *s, { "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS" });
                sl.within = *s;
            }
        } else if (key == "min" && sl.metric == Metric::Placement) {
            haveBound = true;
            if (auto f = fraction(r, v, sub))
                sl.limit = *f;
        } else if (key == "max" && sl.metric != Metric::Placement) {
            haveBound = true;
            const auto bound = sl.metric == Metric::NeverScheduled ? fraction(r, v, sub) : seconds(r, v, sub);
            if (bound)
                sl.limit = *bound;
        } else {
            return false;
        }
        return true;
    });
    if (!haveBound)
        r.required(n, path + (sl.metric == Metric::Placement ? ".min" : ".max"));
}

void parseConstraints(DocReader& r, const YamlNode& n, const std::string& path, Constraints& c)
{
    r.fields(n, path, "budgetUSD, powerWatts, rackSlots",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "budgetUSD")
                c.budgetUsd = amount(r, v, sub);
            else if (key == "powerWatts")
                c.powerWatts = amount(r, v, sub);
            else if (key == "rackSlots")
                c.rackSlots = r.integer(v, sub, 0, INT32_MAX);
            else
                return false;
            return true;
        });
}

void parseCandidates(DocReader& r, const YamlNode& v, const std::string& path, Study& s)
{
    std::set<std::string> names;
    nonEmptyList(r, v, path, "candidate shape", [&](const YamlNode& item, const std::string& ip) {
        CandidateShape c;
        parseCandidate(r, item, ip, c);
        if (!c.name.empty() && !names.insert(c.name).second)
            r.duplicate(item, ip + ".name", c.name);
        s.candidates.push_back(std::move(c));
    });
}

void parseSeeds(DocReader& r, const YamlNode& v, const std::string& path, Study& s)
{
    std::set<uint64_t> seen;
    nonEmptyList(r, v, path, "seed", [&](const YamlNode& item, const std::string& ip) {
        if (auto seed = r.integer(item, ip, 0)) {
            if (!seen.insert(uint64_t(*seed)).second)
                r.error(item, ip, "Duplicate value: " + std::to_string(*seed)); // a number, unquoted
            s.seeds.push_back(uint64_t(*seed));
        }
    });
}

void parseLoadGrowth(DocReader& r, const YamlNode& v, const std::string& path, Study& s)
{
    s.loadGrowth.clear();
    r.items(v, path, [&](const YamlNode& item, const std::string& ip) {
        if (auto g = growth(r, item, ip)) {
            if (std::find(s.loadGrowth.begin(), s.loadGrowth.end(), *g) != s.loadGrowth.end())
                r.error(item, ip, "Duplicate value: " + trimNumber(*g * 100) + "%");
            s.loadGrowth.push_back(*g);
        }
    });
}

/// Scoring policies by name (or alias), each once: "bin-packing" and "most-allocated" are one.
void parsePolicies(DocReader& r, const YamlNode& v, const std::string& path, Study& s)
{
    s.policiesPos = v.pos;
    nonEmptyList(r, v, path, "scoring policy", [&](const YamlNode& item, const std::string& ip) {
        const auto name = r.string(item, ip);
        if (!name)
            return;
        const auto policy = scheduler::parseScoringPolicy(*name);
        if (!policy)
            r.error(item, ip, scheduler::unknownScoringPolicyMessage(*name));
        else if (std::find(s.policies.begin(), s.policies.end(), *policy) != s.policies.end())
            r.duplicate(item, ip, scheduler::scoringPolicyName(*policy));
        else
            s.policies.push_back(*policy);
    });
}

/// spec.owned: {candidate: nodes}. Names are checked against the candidates once both are read.
void parseOwned(DocReader& r, const YamlNode& v, const std::string& path, Study& s)
{
    r.fields(v, path, [&](const std::string& key, const YamlNode& n, const std::string& sub) {
        if (auto count = r.integer(n, sub, 0, 100000))
            s.owned.push_back(OwnedNodes { key, int(*count), n.pos });
        return true;
    });
}

/// Each owned entry names a candidate, once, with no more nodes than its maxNodes.
void checkOwned(DocReader& r, Study& s)
{
    std::set<std::string> seen;
    for (const OwnedNodes& o : s.owned) {
        const std::string path = yamlio::joinPath("spec.owned", o.candidate);
        const auto c = std::find_if(s.candidates.begin(), s.candidates.end(),
            [&](const CandidateShape& x) { return x.name == o.candidate; });
        if (c == s.candidates.end()) {
            std::string names;
            for (const auto& x : s.candidates)
                names += (names.empty() ? "" : ", ") + x.name;
            r.error(o.pos, path,
                "Not found: \"" + o.candidate + "\": no candidate of that name (candidates: " + names + ")");
        } else if (o.nodes > c->maxNodes) {
            r.error(o.pos, path,
                "Invalid value: " + std::to_string(o.nodes) + ": more than the candidate's maxNodes ("
                    + std::to_string(c->maxNodes) + ")");
        }
        if (!seen.insert(o.candidate).second)
            r.error(o.pos, path, "Duplicate value: \"" + o.candidate + "\"");
    }
}

/// spec.tco: every term required; years above 0, PUE at least 1, an energy price of at least 0.
void parseTco(DocReader& r, const YamlNode& v, const std::string& path, TcoTerms& t)
{
    bool years = false, pue = false, price = false;
    r.fields(v, path, "years, pue, energyUSDPerKWh",
        [&](const std::string& key, const YamlNode& n, const std::string& sub) {
            if (key == "years") {
                years = true;
                if (auto y = r.number(n, sub, 0.01, 100))
                    t.years = *y;
            } else if (key == "pue") {
                pue = true;
                if (auto p = r.number(n, sub, 1, 10))
                    t.pue = *p;
            } else if (key == "energyUSDPerKWh") {
                price = true;
                if (auto e = amount(r, n, sub))
                    t.energyUsdPerKwh = *e;
            } else {
                return false;
            }
            return true;
        });
    if (v.isMap() && !years)
        r.required(v, path + ".years");
    if (v.isMap() && !pue)
        r.required(v, path + ".pue");
    if (v.isMap() && !price)
        r.required(v, path + ".energyUSDPerKWh");
}

void parseSpec(DocReader& r, const YamlNode& spec, Study& s)
{
    bool haveScenario = false, haveCandidates = false, haveLevels = false;
    const YamlNode* costNode = nullptr;
    const YamlNode* tcoNode = nullptr;
    r.fields(spec, "spec",
        "scenario, cost, tco, candidates, serviceLevels, constraints, seeds, loadGrowth, policies, owned, "
        "growth, failures",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "scenario") {
                haveScenario = true;
                s.scenarioPos = v.pos;
                if (auto p = r.string(v, sub)) {
                    s.scenario = *p;
                    if (p->empty())
                        r.required(v, sub);
                }
            } else if (key == "cost") {
                costNode = &v;
                if (auto c = r.string(v, sub)) {
                    if (*c == "purchase")
                        s.cost = CostBasis::Purchase;
                    else if (*c == "hourly")
                        s.cost = CostBasis::Hourly;
                    else if (*c == "tco")
                        s.cost = CostBasis::Tco;
                    else
                        r.unsupported(v, sub, *c, { "hourly", "purchase", "tco" });
                }
            } else if (key == "tco") {
                tcoNode = &v;
                parseTco(r, v, sub, s.tco);
            } else if (key == "candidates") {
                haveCandidates = true;
                parseCandidates(r, v, sub, s);
            } else if (key == "serviceLevels") {
                haveLevels = true;
                nonEmptyList(r, v, sub, "service level", [&](const YamlNode& item, const std::string& ip) {
                    ServiceLevel sl;
                    parseServiceLevel(r, item, ip, sl);
                    s.serviceLevels.push_back(std::move(sl));
                });
            } else if (key == "constraints") {
                parseConstraints(r, v, sub, s.constraints);
            } else if (key == "seeds") {
                parseSeeds(r, v, sub, s);
            } else if (key == "loadGrowth") {
                parseLoadGrowth(r, v, sub, s);
            } else if (key == "policies") {
                parsePolicies(r, v, sub, s);
            } else if (key == "growth") {
                if (auto g = r.string(v, sub)) {
                    if (*g == "arrivals")
                        s.growth = Growth::Arrivals;
                    else if (*g == "jobs")
                        s.growth = Growth::Jobs;
                    else
                        r.unsupported(v, sub, *g, { "arrivals", "jobs" });
                }
            } else if (key == "owned") {
                parseOwned(r, v, sub, s);
            } else if (key == "failures") {
                scenario::parseFailuresByDeviceModel(r, v, sub, s.failuresByDeviceModel);
            } else {
                return false;
            }
            return true;
        });
    if (!haveScenario)
        r.required(spec, "spec.scenario");
    if (!haveCandidates)
        r.required(spec, "spec.candidates");
    if (!haveLevels)
        r.required(spec, "spec.serviceLevels");
    if (s.cost == CostBasis::Tco && !tcoNode)
        r.error(costNode ? *costNode : spec, "spec.tco",
            "Required value: cost: tco needs years, pue and energyUSDPerKWh");
    else if (s.cost != CostBasis::Tco && tcoNode)
        r.error(*tcoNode, "spec.tco", "Forbidden: only with cost: tco");
    checkOwned(r, s);
}

} // namespace

int distanceRank(std::string_view cls)
{
    for (int i = 0; i < int(std::size(kDistanceClasses)); ++i)
        if (cls == kDistanceClasses[i])
            return i;
    return -1;
}

std::string ServiceLevel::describe() const
{
    auto scope = [&] {
        std::string s = workload.empty() ? std::string() : " of " + workload;
        if (!priorityClass.empty())
            s += (s.empty() ? " of priority class " : ", priority class ") + priorityClass;
        return s;
    };
    switch (metric) {
    case Metric::Wait:
        return std::string("p").append(trimNumber(percentile)) + " wait" + scope()
            + " <= " + sim::formatDuration(sim::fromSeconds(limit));
    case Metric::Pending:
        return "longest pending" + scope() + " <= " + sim::formatDuration(sim::fromSeconds(limit));
    case Metric::NeverScheduled:
        return "never scheduled" + scope() + " <= " + trimNumber(limit * 100) + "%";
    case Metric::Placement:
        return "multi-device claims within " + within + " >= " + trimNumber(limit * 100) + "%";
    }
    return {};
}

std::string ServiceLevel::column() const
{
    auto scope = [&] {
        return (workload.empty() ? std::string() : "_" + workload)
            + (priorityClass.empty() ? std::string() : "_class_" + priorityClass);
    };
    switch (metric) {
    case Metric::Wait:
        return "wait_p" + trimNumber(percentile) + scope() + "_s";
    case Metric::Pending:
        return "pending_max" + scope() + "_s";
    case Metric::NeverScheduled:
        return "never_scheduled" + scope();
    case Metric::Placement: {
        std::string lower;
        for (char c : within)
            lower += char(std::tolower(static_cast<unsigned char>(c)));
        return "placement_" + lower;
    }
    }
    return {};
}

int Study::ownedNodes(const std::string& candidate) const
{
    for (const OwnedNodes& o : owned)
        if (o.candidate == candidate)
            return o.nodes;
    return 0;
}

std::string Study::scenarioPath() const
{
    if (scenario.empty() || std::filesystem::path(scenario).is_absolute())
        return scenario;
    return (std::filesystem::path(baseDir) / scenario).lexically_normal().string();
}

std::optional<Study> parseStudy(std::string_view text, const std::string& file, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(text, file, diags);
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    Study s;
    s.file = file;
    std::string dir = std::filesystem::path(file).parent_path().string();
    s.baseDir = dir.empty() ? "." : dir;
    DocReader r(diags, "Study");
    const yamlio::DocumentFrame frame = yamlio::readDocumentFrame(r, docs, file, kStudyApiVersion, "Study");
    if (frame.root)
        s.pos = frame.root->pos;
    s.name = r.name();
    if (frame.spec)
        parseSpec(r, *frame.spec, s);
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    return s;
}

std::optional<Study> loadStudy(const std::string& path, Diagnostics& diags)
{
    std::string text, error;
    if (!yamlio::readFile(path, text, &error, 16u << 20)) {
        diags.error(SourcePos { path, 0, 0 }, "Study", "", "", "cannot read file: " + error);
        return std::nullopt;
    }
    return parseStudy(text, path, diags);
}

} // namespace drasim::planner
