// SPDX-License-Identifier: Apache-2.0
#include "core/sim/series_writer.h"

#include <cmath>
#include <cstdio>

#include "core/common/money_text.h"

namespace drasim::sim {

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return "0";
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(value));
        return buf;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", value);
    return buf;
}

void SeriesWriter::onSample(const MetricSample& sample)
{
    std::string time = formatNumber(toSeconds(sample.time));
    for (const auto& p : sample.points) {
        m_csv += time;
        m_csv += ',';
        m_csv += csvField(p.metric);
        m_csv += ',';
        m_csv += csvField(p.key);
        m_csv += ',';
        m_csv += isMoneyMetric(p.metric) ? moneyCsv(p.value) : formatNumber(p.value);
        m_csv += '\n';
    }
}

} // namespace drasim::sim
