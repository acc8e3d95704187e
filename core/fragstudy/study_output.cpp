// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/study_output.h"

#include <algorithm>
#include <cstdio>

#include "core/common/data_value.h"

namespace drasim::fragstudy {

namespace {

std::string fixed2(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string fixed1(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string seedRange(const std::vector<uint64_t>& seeds)
{
    if (seeds.empty())
        return "none";
    bool consecutive = true;
    for (size_t i = 1; i < seeds.size(); ++i)
        consecutive = consecutive && seeds[i] == seeds[i - 1] + 1;
    if (consecutive)
        return seeds.size() == 1 ? std::to_string(seeds[0])
                                 : std::to_string(seeds.front()) + "-" + std::to_string(seeds.back());
    std::string out;
    for (uint64_t s : seeds) {
        if (!out.empty())
            out += ',';
        out += std::to_string(s);
    }
    return out;
}

std::string inflationText(const InflationOptions& inflation)
{
    std::string out = "not inflated";
    if (inflation.targetPercent) {
        out = "inflated to ";
        out += fixed2(*inflation.targetPercent);
        out += " % of GPU capacity";
    }
    out += inflation.shuffle ? ", shuffled" : ", in trace order";
    return out;
}

int lastPercent(const StudyResult& result, const OutputRange& range)
{
    return std::min(range.toPercent, result.options.maxPercent);
}

std::string table(const StudyResult& result, const OutputRange& range, const char* heading,
    std::vector<SeedStats> PolicyCurves::*measure)
{
    std::string out = std::string(heading) + "\n";
    char cell[64];
    out += "arrived %";
    for (const PolicyCurves& p : result.policies) {
        std::snprintf(cell, sizeof cell, "  %15s", gpushare::sharePolicyInfo(p.policy).name);
        out += cell;
    }
    out += "\n";
    for (int x = range.fromPercent; x <= lastPercent(result, range); x += range.textStep) {
        std::snprintf(cell, sizeof cell, "%9d", x);
        out += cell;
        for (const PolicyCurves& p : result.policies) {
            const SeedStats& s = (p.*measure)[size_t(x)];
            std::snprintf(cell, sizeof cell, "  %15s", s.seeds == 0 ? "-" : fixed2(s.median).c_str());
            out += cell;
        }
        out += "\n";
    }
    return out;
}

DataValue statsValue(const SeedStats& s)
{
    DataValue v = DataValue::map();
    v.set("seeds", int64_t(s.seeds));
    if (s.seeds == 0)
        return v;
    v.set("mean", s.mean);
    v.set("median", s.median);
    v.set("lowerQuartile", s.lowerQuartile);
    v.set("upperQuartile", s.upperQuartile);
    return v;
}

} // namespace

std::string studyText(const StudyResult& result, const std::string& title, const OutputRange& range)
{
    const StudyOptions& o = result.options;
    std::string out = "Fragmentation study: " + title + "\n";
    out += std::to_string(result.nodes) + " nodes, " + std::to_string(result.gpus) + " GPUs, "
        + std::to_string(result.tracePods) + " pods in the trace, " + inflationText(o.inflation) + "; seeds "
        + seedRange(o.seeds) + " (" + std::to_string(o.seeds.size())
        + " runs per policy); ties: " + tieBreakName(o.tieBreak) + "; GPU choice: "
        + (o.gpuChoice ? gpushare::gpuChoiceName(*o.gpuChoice) : "each policy's own") + "\n";
    if (!result.policies.empty())
        out += "arrivals per run: " + fixed1(result.policies.front().meanArrivals)
            + " on average (the trace's pods, then their clones)\n";
    out += "pods dropped per run (mean):";
    for (const PolicyCurves& p : result.policies) {
        out += p.policy == result.policies.front().policy ? " " : ", ";
        out += gpushare::sharePolicyInfo(p.policy).name;
        out += ' ';
        out += fixed1(p.meanDropped);
    }
    out += "\n\n";
    out += table(result, range, "GPU allocated, % of capacity (median across seeds), by arrived GPU demand:",
        &PolicyCurves::allocated);
    out += "\n";
    out += table(
        result, range, "GPU fragmentation, % of capacity (median across seeds):", &PolicyCurves::fragment);
    return out;
}

std::string studyCsv(const StudyResult& result, const OutputRange& range)
{
    std::string out
        = "policy,arrived_percent,seeds,allocated_mean,allocated_median,allocated_q1,allocated_q3,"
          "fragment_mean,fragment_median,fragment_q1,fragment_q3,fragment_rate_mean,fragment_rate_median\n";
    for (const PolicyCurves& p : result.policies)
        for (int x = range.fromPercent; x <= lastPercent(result, range); ++x) {
            const SeedStats& a = p.allocated[size_t(x)];
            const SeedStats& f = p.fragment[size_t(x)];
            const SeedStats& r = p.fragmentRate[size_t(x)];
            out += std::string(gpushare::sharePolicyInfo(p.policy).name) + "," + std::to_string(x) + ","
                + std::to_string(a.seeds);
            if (a.seeds == 0) {
                out += ",,,,,,,,,,\n";
                continue;
            }
            for (double v : { a.mean, a.median, a.lowerQuartile, a.upperQuartile, f.mean, f.median,
                     f.lowerQuartile, f.upperQuartile, r.mean, r.median }) {
                out += ',';
                out += fixed2(v);
            }
            out += "\n";
        }
    return out;
}

std::string studyJson(const StudyResult& result, const std::string& title, const OutputRange& range)
{
    const StudyOptions& o = result.options;
    DataValue doc = DataValue::map();
    doc.set("study", title);
    doc.set("nodes", int64_t(result.nodes));
    doc.set("gpus", result.gpus);
    doc.set("tracePods", int64_t(result.tracePods));
    if (!o.inflation.targetPercent)
        doc.set("inflatedToPercent", DataValue());
    else if (*o.inflation.targetPercent == double(int64_t(*o.inflation.targetPercent)))
        doc.set("inflatedToPercent", int64_t(*o.inflation.targetPercent)); // 130, not 1.3e+02
    else
        doc.set("inflatedToPercent", *o.inflation.targetPercent);
    doc.set("shuffled", o.inflation.shuffle);
    doc.set("tieBreak", tieBreakName(o.tieBreak));
    doc.set("gpuChoice", o.gpuChoice ? DataValue(gpushare::gpuChoiceName(*o.gpuChoice)) : DataValue());
    DataValue seeds = DataValue::list();
    for (uint64_t s : o.seeds)
        seeds.push(int64_t(s));
    doc.set("seeds", std::move(seeds));
    DataValue policies = DataValue::list();
    for (const PolicyCurves& p : result.policies) {
        DataValue policy = DataValue::map();
        policy.set("policy", gpushare::sharePolicyInfo(p.policy).name);
        policy.set("meanArrivals", p.meanArrivals);
        policy.set("meanDropped", p.meanDropped);
        DataValue points = DataValue::list();
        for (int x = range.fromPercent; x <= lastPercent(result, range); ++x) {
            DataValue point = DataValue::map();
            point.set("arrivedPercent", int64_t(x));
            point.set("allocatedPercent", statsValue(p.allocated[size_t(x)]));
            point.set("fragmentPercent", statsValue(p.fragment[size_t(x)]));
            point.set("fragmentRatePercent", statsValue(p.fragmentRate[size_t(x)]));
            points.push(std::move(point));
        }
        policy.set("points", std::move(points));
        policies.push(std::move(policy));
    }
    doc.set("policies", std::move(policies));
    return toJson(doc) + "\n";
}

} // namespace drasim::fragstudy
