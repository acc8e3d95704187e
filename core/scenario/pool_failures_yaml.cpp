// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/pool_failures_yaml.h"

#include <cmath>
#include <cstdlib>
#include <optional>

#include "core/common/diagnostic.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

namespace {

using yamlio::DocReader;
using yamlio::YamlNode;

/// A duration greater than zero (or at least zero with allowZero); nullopt (reported) otherwise.
std::optional<sim::SimTime> positiveDuration(
    DocReader& r, const YamlNode& n, const std::string& path, bool allowZero = false)
{
    const auto ms = r.milliseconds(n, path);
    if (!ms)
        return std::nullopt;
    if (*ms < 0 || (*ms == 0 && !allowZero)) {
        r.invalid(n, path, n.scalar, allowZero ? "must be at least 0" : "must be greater than 0");
        return std::nullopt;
    }
    return *ms;
}

const char* distributionName(sim::DownTime::Distribution d)
{
    switch (d) {
    case sim::DownTime::Distribution::Exponential:
        return "exponential";
    case sim::DownTime::Distribution::Fixed:
        return "fixed";
    case sim::DownTime::Distribution::Lognormal:
        return "lognormal";
    }
    return "exponential";
}

/// {mean: 4h, distribution: exponential | fixed | lognormal, sigma: 1.0}; mean is required.
void parseDownTime(DocReader& r, const YamlNode& n, const std::string& path, sim::DownTime& out)
{
    bool haveMean = false;
    const YamlNode* sigmaNode = nullptr;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "mean") {
            if (const auto t = positiveDuration(r, v, sub))
                out.mean = *t;
            haveMean = true;
        } else if (key == "distribution") {
            const auto name = r.string(v, sub);
            if (!name)
                return true;
            if (*name == "exponential")
                out.distribution = sim::DownTime::Distribution::Exponential;
            else if (*name == "fixed")
                out.distribution = sim::DownTime::Distribution::Fixed;
            else if (*name == "lognormal")
                out.distribution = sim::DownTime::Distribution::Lognormal;
            else
                r.unsupported(v, sub, *name, { "exponential", "fixed", "lognormal" });
        } else if (key == "sigma") {
            sigmaNode = &v;
            if (const auto s = r.number(v, sub, 0.01, 5))
                out.sigma = *s;
        } else {
            return false;
        }
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveMean)
        r.required(n, path + ".mean");
    if (sigmaNode && out.distribution != sim::DownTime::Distribution::Lognormal)
        r.error(*sigmaNode, path + ".sigma", "Forbidden: only with distribution lognormal");
}

/// "0.02/h", "0.5/d" or a bare number (per hour), greater than 0: reclaims per node-hour.
std::optional<double> parseRatePerHour(DocReader& r, const YamlNode& n, const std::string& path)
{
    if (!n.isScalar()) {
        r.error(n, path, "expected a rate such as 0.02/h or 0.5/d, got " + DocReader::describe(n));
        return std::nullopt;
    }
    const std::string& text = n.scalar;
    const size_t slash = text.find('/');
    const std::string number = text.substr(0, slash);
    const std::string unit = slash == std::string::npos ? "h" : text.substr(slash + 1);
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    const bool parsed = !number.empty() && end == number.c_str() + number.size() && std::isfinite(value);
    if (!parsed || (unit != "h" && unit != "d")) {
        r.invalid(n, path, text, "expected a rate such as 0.02/h or 0.5/d (reclaims per node-hour or -day)");
        return std::nullopt;
    }
    if (!(value > 0)) {
        r.invalid(n, path, text, "must be greater than 0");
        return std::nullopt;
    }
    return unit == "d" ? value / 24.0 : value;
}

DataValue downTimeData(const sim::DownTime& d)
{
    DataValue m = DataValue::map();
    m.set("mean", sim::formatDuration(d.mean));
    m.set("distribution", distributionName(d.distribution));
    if (d.distribution == sim::DownTime::Distribution::Lognormal)
        m.set("sigma", d.sigma);
    return m;
}

} // namespace

void parseFailureProcess(
    DocReader& r, const YamlNode& n, const std::string& path, sim::NodeFailureProcess& out)
{
    bool haveMtbf = false, haveRepair = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "mtbf") {
            if (const auto t = positiveDuration(r, v, sub))
                out.mtbf = *t;
            haveMtbf = true;
        } else if (key == "weibull") {
            bool haveShape = false;
            r.fields(v, sub, [&](const std::string& wk, const YamlNode& wv, const std::string& ws) {
                if (wk != "shape")
                    return false;
                haveShape = true;
                // Beyond these the scale's Gamma function and the draws lose their precision.
                if (const auto k = r.number(wv, ws, 0.1, 10))
                    out.weibullShape = *k;
                return true;
            });
            if (v.isMap() && !haveShape)
                r.required(v, sub + ".shape");
        } else if (key == "repair") {
            parseDownTime(r, v, sub, out.repair);
            haveRepair = true;
        } else {
            return false;
        }
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveMtbf)
        r.required(n, path + ".mtbf");
    if (!haveRepair)
        r.required(n, path + ".repair");
}

void parseSpotReclaim(DocReader& r, const YamlNode& n, const std::string& path, sim::SpotReclaim& out)
{
    bool haveRate = false, haveReplacement = false;
    r.fields(n, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "reclaimRate") {
            if (const auto rate = parseRatePerHour(r, v, sub))
                out.ratePerHour = *rate;
            haveRate = true;
        } else if (key == "notice") {
            if (const auto t = positiveDuration(r, v, sub, true))
                out.notice = *t;
        } else if (key == "replacement") {
            parseDownTime(r, v, sub, out.replacement);
            haveReplacement = true;
        } else {
            return false;
        }
        return true;
    });
    if (!n.isMap())
        return;
    if (!haveRate)
        r.required(n, path + ".reclaimRate");
    if (!haveReplacement)
        r.required(n, path + ".replacement");
}

DataValue failureProcessData(const sim::NodeFailureProcess& f)
{
    DataValue m = DataValue::map();
    m.set("mtbf", sim::formatDuration(f.mtbf));
    if (f.weibullShape != 1.0) {
        DataValue w = DataValue::map();
        w.set("shape", f.weibullShape);
        m.set("weibull", std::move(w));
    }
    m.set("repair", downTimeData(f.repair));
    return m;
}

DataValue spotReclaimData(const sim::SpotReclaim& s)
{
    DataValue m = DataValue::map();
    m.set("reclaimRate", s.ratePerHour); // a bare number is per hour
    m.set("notice", sim::formatDuration(s.notice));
    m.set("replacement", downTimeData(s.replacement));
    return m;
}

} // namespace drasim::scenario
