// SPDX-License-Identifier: Apache-2.0
#include "core/planner/study.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/sim/sim_time.h"
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

/// Error reporting and typed access for one study document.
class StudyReader
{
public:
    explicit StudyReader(Diagnostics& diags)
        : m_diags(diags)
    { }

    std::string name;

    void error(const YamlNode& n, const std::string& field, const std::string& message)
    {
        m_diags.error(n.pos, "Study", name, field, message);
    }

    /// Calls f(key, value, path) for each entry of a map; f returns false for unknown keys, which
    /// are reported with the list of known ones.
    template <class F> bool fields(const YamlNode& n, const std::string& path, const char* known, F&& f)
    {
        if (!n.isMap()) {
            error(n, path, std::string("must be a map, not ") + n.typeName());
            return false;
        }
        for (const auto& [k, v] : n.entries) {
            std::string key = k.asString().value_or("");
            std::string sub = path.empty() ? key : path + "." + key;
            if (!f(key, v, sub))
                error(k, sub, "unknown field \"" + key + "\"; expected one of: " + known);
        }
        return true;
    }

    std::optional<std::string> string(const YamlNode& n, const std::string& path)
    {
        auto s = n.asString();
        if (!s || !n.isScalar()) {
            error(n, path, std::string("must be a string, not ") + n.typeName());
            return std::nullopt;
        }
        return s;
    }

    std::optional<int64_t> integer(const YamlNode& n, const std::string& path, int64_t min, int64_t max)
    {
        auto v = n.isScalar() && !n.quoted ? n.asInt() : std::nullopt;
        if (!v) {
            error(n, path, std::string("must be an integer, not ") + n.typeName());
            return std::nullopt;
        }
        if (*v < min || *v > max) {
            error(n, path,
                "Invalid value: " + std::to_string(*v) + ": must be between " + std::to_string(min) + " and "
                    + std::to_string(max));
            return std::nullopt;
        }
        return v;
    }

    std::optional<double> number(const YamlNode& n, const std::string& path)
    {
        auto v = n.isScalar() && !n.quoted ? n.asDouble() : std::nullopt;
        if (!v || !std::isfinite(*v) || *v < 0) {
            error(n, path, "must be a non-negative number");
            return std::nullopt;
        }
        return v;
    }

    /// "1%", "12.5%" or a plain fraction in [0, 1].
    std::optional<double> fraction(const YamlNode& n, const std::string& path)
    {
        std::string text = n.isScalar() ? n.asString().value_or("") : std::string();
        double v = -1;
        bool ok = false;
        if (!text.empty() && text.back() == '%') {
            char* end = nullptr;
            std::string digits = text.substr(0, text.size() - 1);
            v = std::strtod(digits.c_str(), &end);
            ok = !digits.empty() && end && *end == '\0';
            v /= 100.0;
        } else if (auto d = n.asDouble(); d && n.isScalar()) {
            v = *d;
            ok = true;
        }
        if (!ok || !std::isfinite(v) || v < 0 || v > 1) {
            error(n, path,
                "Invalid value: \"" + text
                    + "\": must be a percentage (\"1%\") or a fraction between 0 and 1");
            return std::nullopt;
        }
        return v;
    }

    /// A growth factor: "10%" or 0.1; any non-negative amount (200% doubles the load twice over).
    std::optional<double> growth(const YamlNode& n, const std::string& path)
    {
        std::string text = n.isScalar() ? n.asString().value_or("") : std::string();
        double v = -1;
        bool ok = false;
        if (!text.empty() && text.back() == '%') {
            char* end = nullptr;
            std::string digits = text.substr(0, text.size() - 1);
            v = std::strtod(digits.c_str(), &end) / 100.0;
            ok = !digits.empty() && end && *end == '\0';
        } else if (auto d = n.asDouble(); d && n.isScalar()) {
            v = *d;
            ok = true;
        }
        if (!ok || !std::isfinite(v) || v <= 0 || v > 100) {
            error(
                n, path, "Invalid value: \"" + text + "\": must be a load growth above 0 (\"25%\" or 0.25)");
            return std::nullopt;
        }
        return v;
    }

    std::optional<double> seconds(const YamlNode& n, const std::string& path)
    {
        std::string text = n.isScalar() ? n.asString().value_or("") : std::string();
        sim::SimTime t = 0;
        if (!n.isScalar() || !sim::parseDuration(text, t) || t < 0) {
            error(n, path,
                "Invalid value: \"" + text + "\": must be a duration such as 90s, 10m, 1h or seconds");
            return std::nullopt;
        }
        return sim::toSeconds(t);
    }

private:
    Diagnostics& m_diags;
};

bool validName(const std::string& s)
{
    if (s.empty() || s.size() > 63)
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    return s.front() != '-' && s.back() != '-';
}

void parseCandidate(StudyReader& r, const YamlNode& n, const std::string& path, CandidateShape& c)
{
    c.pos = n.pos;
    bool haveShape = false;
    r.fields(n, path, "shape, name, maxNodes, purchaseUSD, perHourUSD, powerWatts, rackSlots",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "shape") {
                if (auto s = r.string(v, sub)) {
                    c.shape = *s;
                    haveShape = !s->empty();
                    if (!haveShape)
                        r.error(v, sub, "Required value");
                }
            } else if (key == "name") {
                if (auto s = r.string(v, sub)) {
                    c.name = *s;
                    if (!validName(c.name))
                        r.error(
                            v, sub, "Invalid value: \"" + c.name + "\": must be a lowercase RFC 1123 label");
                }
            } else if (key == "maxNodes") {
                if (auto i = r.integer(v, sub, 1, 100000))
                    c.maxNodes = int(*i);
            } else if (key == "purchaseUSD") {
                c.purchaseUsd = r.number(v, sub);
            } else if (key == "perHourUSD") {
                c.perHourUsd = r.number(v, sub);
            } else if (key == "powerWatts") {
                c.powerWatts = r.number(v, sub);
            } else if (key == "rackSlots") {
                if (auto i = r.integer(v, sub, 0, 1000))
                    c.rackSlots = int(*i);
            } else {
                return false;
            }
            return true;
        });
    if (n.isMap() && !haveShape && !n.get("shape"))
        r.error(n, path + ".shape", "Required value");
    if (c.name.empty() && haveShape && validName(c.shape))
        c.name = c.shape;
    else if (c.name.empty() && haveShape)
        r.error(n, path + ".name",
            "Required value: the shape name \"" + c.shape + "\" is not a valid pool name; give one");
}

const char* const kMetrics = "wait, pending, neverScheduled, placement";

void parseServiceLevel(StudyReader& r, const YamlNode& n, const std::string& path, ServiceLevel& sl)
{
    sl.pos = n.pos;
    if (!n.isMap()) {
        r.error(n, path, std::string("must be a map, not ") + n.typeName());
        return;
    }
    const YamlNode* metricNode = n.get("metric");
    if (!metricNode) {
        r.error(n, path + ".metric", std::string("Required value: one of ") + kMetrics);
        return;
    }
    auto metric = r.string(*metricNode, path + ".metric");
    if (!metric)
        return;
    if (*metric == "wait")
        sl.metric = Metric::Wait;
    else if (*metric == "pending")
        sl.metric = Metric::Pending;
    else if (*metric == "neverScheduled")
        sl.metric = Metric::NeverScheduled;
    else if (*metric == "placement")
        sl.metric = Metric::Placement;
    else {
        r.error(*metricNode, path + ".metric",
            "Unsupported value: \"" + *metric + "\": supported values: " + kMetrics);
        return;
    }
    const char* known = sl.metric == Metric::Wait ? "metric, percentile, workload, max"
        : sl.metric == Metric::Placement          ? "metric, within, min"
                                                  : "metric, workload, max";
    bool haveBound = false;
    r.fields(n, path, known, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "metric")
            return true;
        if (key == "percentile" && sl.metric == Metric::Wait) {
            if (auto p = r.number(v, sub)) {
                if (*p <= 0 || *p > 100)
                    r.error(v, sub, "Invalid value: must be above 0 and at most 100");
                sl.percentile = *p;
            }
        } else if (key == "workload" && sl.metric != Metric::Placement) {
            if (auto s = r.string(v, sub))
                sl.workload = *s;
        } else if (key == "within" && sl.metric == Metric::Placement) {
            if (auto s = r.string(v, sub)) {
                if (distanceRank(*s) < 0)
                    r.error(v, sub,
                        "Unsupported value: \"" + *s
                            + "\": supported values: X, NV, PIX, PXB, PHB, NODE, SYS");
                sl.within = *s;
            }
        } else if (key == "min" && sl.metric == Metric::Placement) {
            haveBound = true;
            if (auto f = r.fraction(v, sub))
                sl.limit = *f;
        } else if (key == "max" && sl.metric != Metric::Placement) {
            haveBound = true;
            std::optional<double> bound
                = sl.metric == Metric::NeverScheduled ? r.fraction(v, sub) : r.seconds(v, sub);
            if (bound)
                sl.limit = *bound;
        } else {
            return false;
        }
        return true;
    });
    if (!haveBound)
        r.error(n, path + (sl.metric == Metric::Placement ? ".min" : ".max"), "Required value");
}

void parseConstraints(StudyReader& r, const YamlNode& n, const std::string& path, Constraints& c)
{
    r.fields(n, path, "budgetUSD, powerWatts, rackSlots",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "budgetUSD")
                c.budgetUsd = r.number(v, sub);
            else if (key == "powerWatts")
                c.powerWatts = r.number(v, sub);
            else if (key == "rackSlots")
                c.rackSlots = r.integer(v, sub, 0, INT32_MAX);
            else
                return false;
            return true;
        });
}

void parseSpec(StudyReader& r, const YamlNode& spec, Study& s)
{
    bool haveScenario = false, haveCandidates = false, haveLevels = false;
    r.fields(spec, "spec", "scenario, cost, candidates, serviceLevels, constraints, seeds, loadGrowth",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "scenario") {
                if (auto p = r.string(v, sub)) {
                    s.scenario = *p;
                    haveScenario = !p->empty();
                }
            } else if (key == "cost") {
                if (auto c = r.string(v, sub)) {
                    if (*c == "purchase")
                        s.cost = CostBasis::Purchase;
                    else if (*c == "hourly")
                        s.cost = CostBasis::Hourly;
                    else
                        r.error(v, sub,
                            "Unsupported value: \"" + *c + "\": supported values: \"hourly\", \"purchase\"");
                }
            } else if (key == "candidates") {
                haveCandidates = true;
                if (!v.isSequence() || v.items.empty()) {
                    r.error(v, sub, "must be a non-empty list of candidate shapes");
                    return true;
                }
                std::set<std::string> names;
                for (size_t i = 0; i < v.items.size(); ++i) {
                    CandidateShape c;
                    const std::string p = sub + "[" + std::to_string(i) + "]";
                    parseCandidate(r, v.items[i], p, c);
                    if (!c.name.empty() && !names.insert(c.name).second)
                        r.error(v.items[i], p + ".name", "Duplicate value: \"" + c.name + "\"");
                    s.candidates.push_back(std::move(c));
                }
            } else if (key == "serviceLevels") {
                haveLevels = true;
                if (!v.isSequence() || v.items.empty()) {
                    r.error(v, sub, "must be a non-empty list of service levels");
                    return true;
                }
                for (size_t i = 0; i < v.items.size(); ++i) {
                    ServiceLevel sl;
                    parseServiceLevel(r, v.items[i], sub + "[" + std::to_string(i) + "]", sl);
                    s.serviceLevels.push_back(std::move(sl));
                }
            } else if (key == "constraints") {
                parseConstraints(r, v, sub, s.constraints);
            } else if (key == "seeds") {
                if (!v.isSequence() || v.items.empty()) {
                    r.error(v, sub, "must be a non-empty list of seeds");
                    return true;
                }
                std::set<uint64_t> seen;
                for (size_t i = 0; i < v.items.size(); ++i) {
                    const std::string p = sub + "[" + std::to_string(i) + "]";
                    if (auto seed = r.integer(v.items[i], p, 0, INT64_MAX)) {
                        if (!seen.insert(uint64_t(*seed)).second)
                            r.error(v.items[i], p, "Duplicate value: " + std::to_string(*seed));
                        s.seeds.push_back(uint64_t(*seed));
                    }
                }
            } else if (key == "loadGrowth") {
                s.loadGrowth.clear();
                if (!v.isSequence()) {
                    r.error(v, sub, std::string("must be a list of growth amounts, not ") + v.typeName());
                    return true;
                }
                for (size_t i = 0; i < v.items.size(); ++i) {
                    const std::string p = sub + "[" + std::to_string(i) + "]";
                    if (auto g = r.growth(v.items[i], p)) {
                        for (double prev : s.loadGrowth)
                            if (prev == *g)
                                r.error(v.items[i], p, "Duplicate value: " + trimNumber(*g * 100) + "%");
                        s.loadGrowth.push_back(*g);
                    }
                }
            } else {
                return false;
            }
            return true;
        });
    if (!haveScenario && !spec.get("scenario"))
        r.error(spec, "spec.scenario", "Required value");
    if (!haveCandidates)
        r.error(spec, "spec.candidates", "Required value");
    if (!haveLevels)
        r.error(spec, "spec.serviceLevels", "Required value");
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
    auto scope = [&] { return workload.empty() ? std::string() : " of " + workload; };
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
    auto scope = [&] { return workload.empty() ? std::string() : "_" + workload; };
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
    StudyReader r(diags);
    if (docs.empty() || docs.front().isNull()) {
        diags.error(SourcePos { file, 1, 1 }, "Study", "", "", "empty document: expected kind: Study");
        return std::nullopt;
    }
    if (docs.size() > 1)
        r.error(docs[1], "", "a study file holds exactly one document");
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
    r.fields(root, "", "apiVersion, kind, metadata, spec",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "apiVersion") {
                haveApi = true;
                if (auto api = r.string(v, sub); api && *api != kStudyApiVersion)
                    r.error(v, sub,
                        "Unsupported value: \"" + *api + "\": supported values: \"" + kStudyApiVersion
                            + "\"");
            } else if (key == "kind") {
                haveKind = true;
                if (auto kind = r.string(v, sub); kind && *kind != "Study")
                    r.error(v, sub, "Unsupported value: \"" + *kind + "\": supported values: \"Study\"");
            } else if (key == "metadata") {
                r.fields(v, sub, "name, labels, annotations",
                    [&](const std::string& k, const YamlNode& mv, const std::string& ms) {
                        if (k == "name") {
                            if (auto n = r.string(mv, ms); n && !validName(*n))
                                r.error(mv, ms,
                                    "Invalid value: \"" + *n + "\": must be a lowercase RFC 1123 label");
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
    if (s.name.empty())
        r.error(root, "metadata.name", "Required value");
    if (!spec)
        r.error(root, "spec", "Required value");
    else
        parseSpec(r, *spec, s);
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
