// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "core/sim/run_recorder.h"

namespace drasim::sim {

/// Collects the metric samples of a run as CSV in long form:
///   time_s,metric,key,value
///   0,pods.pending,,0
///   300,utilization.model,NVIDIA A100-SXM4-80GB,0.625
/// One row per series point, rows in sample order and, inside a sample, in the engine's fixed
/// metric/key order, so the file is byte-identical for the same scenario and seed.
class SeriesWriter : public RunRecorder
{
public:
    void onSample(const MetricSample& sample) override;
    const std::string& csv() const { return m_csv; }

private:
    std::string m_csv = "time_s,metric,key,value\n";
};

/// CSV field quoting (RFC 4180): quoted only when it holds a comma, quote or line break.
std::string csvField(const std::string& text);
/// Shortest exact-looking text for a metric value: integers without a decimal point, other
/// values with up to 9 significant digits.
std::string formatNumber(double value);

} // namespace drasim::sim
