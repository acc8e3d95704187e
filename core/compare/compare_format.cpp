// SPDX-License-Identifier: Apache-2.0
#include "core/compare/compare_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/money_text.h"

namespace drasim::compare {

namespace {

/// Decimals worth printing for a unit: counts are whole, money has cents.
int decimalsFor(const std::string& unit)
{
    if (unit == "pods" || unit == "claims" || unit == "jobs" || unit == "cycles" || unit == "preemptions")
        return 0;
    if (unit == "USD" || unit == "devices" || unit == "device-h")
        return 2;
    return 1;
}

std::string fixed(double v, int decimals, bool sign)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, v);
    std::string s = buf;
    // "-0.0" and "+0.0" say nothing a plain 0 does not.
    if (std::fabs(v) < 0.5 * std::pow(10.0, -decimals))
        s = decimals == 0 ? "0" : "0." + std::string(size_t(decimals), '0');
    return s;
}

const char* boundPrefix(Bound b)
{
    return b == Bound::AtLeast ? ">=" : b == Bound::AtMost ? "<=" : "";
}

std::string cell(const std::optional<double>& v, const std::string& unit, bool sign, Bound bound)
{
    return v ? boundPrefix(bound) + fixed(*v, decimalsFor(unit), sign) : "-";
}

Bound boundAt(const std::vector<Bound>& bounds, size_t i)
{
    return i < bounds.size() ? bounds[i] : Bound::Exact;
}

bool anyBound(const std::vector<Bound>& bounds)
{
    return std::any_of(bounds.begin(), bounds.end(), [](Bound b) { return b != Bound::Exact; });
}

DataValue boundList(const std::vector<Bound>& bounds)
{
    DataValue out = DataValue::list();
    for (Bound b : bounds)
        out.push(std::string(b == Bound::Exact ? "=" : boundPrefix(b)));
    return out;
}

/// Rounds to 6 decimals (as the run summary does) so that JSON does not show the last bits of
/// floating point arithmetic; whole numbers print as integers.
DataValue tidy(const std::optional<double>& v)
{
    if (!v || !std::isfinite(*v))
        return DataValue();
    const double r = std::round(*v * 1e6) / 1e6;
    if (r == std::floor(r) && std::fabs(r) < 1e15)
        return DataValue(int64_t(r));
    return DataValue(r);
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

/// Exact enough for CSV: up to 6 decimals, no trailing zeros.
std::string csvNumber(const std::optional<double>& v)
{
    if (!v)
        return "";
    DataValue t = tidy(v);
    if (t.isInt())
        return std::to_string(t.asInt());
    std::string text = toJson(t, 0);
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

std::string table(const std::vector<std::vector<std::string>>& rows, size_t leftColumns)
{
    std::vector<size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()));
        for (size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string pad(width[i] - row[i].size(), ' ');
            line += (i ? "  " : "") + (i < leftColumns ? row[i] + pad : pad + row[i]);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string runName(const RunColumn& r)
{
    return std::string("#").append(std::to_string(r.id));
}

} // namespace

const char* betterName(Better b)
{
    switch (b) {
    case Better::Lower:
        return "lower";
    case Better::Higher:
        return "higher";
    case Better::Neither:
        break;
    }
    return "neither";
}

std::string formatText(const Comparison& c)
{
    std::vector<std::vector<std::string>> runs { { "run", "scenario", "revision", "seed", "status",
        "label" } };
    for (const RunColumn& r : c.runs)
        runs.push_back({ runName(r), r.scenario, r.revision ? std::to_string(r.revision) : "-",
            std::to_string(r.seed), r.status, r.label });
    std::string out = table(runs, 6);

    std::vector<std::string> header { "kpi", "unit" };
    for (const RunColumn& r : c.runs)
        header.push_back(runName(r));
    for (size_t i = 1; i < c.runs.size(); ++i)
        header.push_back(runName(c.runs[i]) + "-" + runName(c.runs[0]));
    std::vector<std::vector<std::string>> kpis { header };
    for (const Kpi& k : c.kpis) {
        std::vector<std::string> row { k.name, k.unit };
        for (size_t i = 0; i < k.values.size(); ++i)
            row.push_back(cell(k.values[i], k.unit, false, boundAt(k.valueBounds, i)));
        for (size_t i = 1; i < k.deltas.size(); ++i)
            row.push_back(cell(k.deltas[i], k.unit, true, boundAt(k.deltaBounds, i)));
        kpis.push_back(std::move(row));
    }
    out += "\n" + table(kpis, 2);

    size_t times = 0;
    for (const AlignedSeries& s : c.series)
        times = std::max(times, s.times.size());
    out += "\nseries: " + std::to_string(c.series.size()) + " metrics on one time axis of up to "
        + std::to_string(times) + " samples (-o json or --series FILE for the values)\n";
    return out;
}

DataValue toData(const Comparison& c)
{
    DataValue root = DataValue::map();
    DataValue runs = DataValue::list();
    for (const RunColumn& r : c.runs) {
        DataValue m = DataValue::map();
        m.set("id", r.id);
        m.set("scenario", r.scenario);
        m.set("revision", r.revision);
        m.set("seed", int64_t(r.seed));
        m.set("status", r.status);
        m.set("label", r.label);
        runs.push(std::move(m));
    }
    root.set("runs", std::move(runs));
    DataValue kpis = DataValue::list();
    for (const Kpi& k : c.kpis) {
        DataValue m = DataValue::map();
        m.set("name", k.name);
        m.set("group", k.group);
        m.set("unit", k.unit);
        m.set("better", betterName(k.better));
        DataValue values = DataValue::list(), deltas = DataValue::list();
        for (const auto& v : k.values)
            values.push(tidy(v));
        for (const auto& d : k.deltas)
            deltas.push(tidy(d));
        m.set("values", std::move(values));
        m.set("deltas", std::move(deltas));
        // Only rows with a bound say so: "=" exact, ">=" at least, "<=" at most, per run.
        if (anyBound(k.valueBounds) || anyBound(k.deltaBounds)) {
            m.set("valueBounds", boundList(k.valueBounds));
            m.set("deltaBounds", boundList(k.deltaBounds));
        }
        kpis.push(std::move(m));
    }
    root.set("kpis", std::move(kpis));
    DataValue series = DataValue::list();
    for (const AlignedSeries& s : c.series) {
        DataValue m = DataValue::map();
        m.set("metric", s.metric);
        DataValue times = DataValue::list();
        for (double t : s.times)
            times.push(tidy(t));
        m.set("times", std::move(times));
        DataValue perRun = DataValue::list();
        for (const auto& line : s.values) {
            DataValue values = DataValue::list();
            for (const auto& v : line)
                values.push(tidy(v));
            perRun.push(std::move(values));
        }
        m.set("values", std::move(perRun));
        series.push(std::move(m));
    }
    root.set("series", std::move(series));
    return root;
}

std::string kpiCsv(const Comparison& c)
{
    std::string out = "kpi,group,unit,better";
    for (const RunColumn& r : c.runs)
        out += ",run_" + std::to_string(r.id);
    for (size_t i = 1; i < c.runs.size(); ++i)
        out += ",delta_" + std::to_string(c.runs[i].id);
    out += "\n";
    for (const Kpi& k : c.kpis) {
        out += csvField(k.name) + "," + k.group + "," + k.unit + "," + betterName(k.better);
        // Money has cents, as everywhere drasim writes it in CSV (money_text.h).
        const auto number = [&](const std::optional<double>& v) {
            return v && k.unit == "USD" ? moneyCsv(*v) : csvNumber(v);
        };
        for (size_t i = 0; i < k.values.size(); ++i)
            out.append(",")
                .append(k.values[i] ? boundPrefix(boundAt(k.valueBounds, i)) : "")
                .append(number(k.values[i]));
        for (size_t i = 1; i < k.deltas.size(); ++i)
            out.append(",")
                .append(k.deltas[i] ? boundPrefix(boundAt(k.deltaBounds, i)) : "")
                .append(number(k.deltas[i]));
        out += "\n";
    }
    return out;
}

std::string seriesCsv(const Comparison& c)
{
    std::string out = "metric,time_s";
    for (const RunColumn& r : c.runs)
        out += ",run_" + std::to_string(r.id);
    out += "\n";
    for (const AlignedSeries& s : c.series) {
        const std::string metric = csvField(s.metric);
        const bool money = isMoneyMetric(s.metric);
        for (size_t t = 0; t < s.times.size(); ++t) {
            out += metric + "," + csvNumber(s.times[t]);
            for (const auto& line : s.values)
                out.append(",").append(money && line[t] ? moneyCsv(*line[t]) : csvNumber(line[t]));
            out += "\n";
        }
    }
    return out;
}

} // namespace drasim::compare
