// SPDX-License-Identifier: Apache-2.0
#include "app/cli/plan_output.h"

#include <cstdio>

#include "app/cli/cli_support.h"
#include "core/common/atomic_file.h"

namespace drasim::cli {

std::string studyJson(const planner::StudyResult& result)
{
    return toJson(planner::toData(result)) + "\n";
}

namespace {

/// Writes the frontier files, then prints the text or the JSON.
bool emitReport(
    const std::string& text, const std::string& json, const std::string& csv, const PlanOutputs& outputs)
{
    auto write = [](const std::string& path, const std::string& content) {
        std::string error;
        if (writeFileAtomically(path, content, &error))
            return true;
        printError("cannot write " + path + ": " + error);
        return false;
    };
    if (!outputs.frontierCsv.empty() && !write(outputs.frontierCsv, csv))
        return false;
    if (!outputs.frontierJson.empty() && !write(outputs.frontierJson, json))
        return false;
    printStdout(outputs.output == "json" ? json : text);
    return true;
}

} // namespace

bool emitStudy(const planner::StudyResult& result, const PlanOutputs& outputs)
{
    return emitReport(planner::formatText(result), studyJson(result), planner::frontierCsv(result), outputs);
}

bool emitPolicyStudy(const planner::PolicyStudyResult& result, const PlanOutputs& outputs)
{
    return emitReport(planner::formatPolicyText(result), toJson(planner::toData(result)) + "\n",
        planner::policyFrontierCsv(result), outputs);
}

void StderrPercent::progress(double fraction, std::string_view stage)
{
    const int percent = int(fraction * 100.0);
    if (percent == m_last && stage == m_stage)
        return;
    m_last = percent;
    m_stage = std::string(stage);
    std::fprintf(stderr, "\r\033[K%s %3d%%", m_stage.c_str(), percent);
    std::fflush(stderr);
}

void StderrPercent::done()
{
    if (m_last >= 0)
        std::fputs("\r\033[K", stderr);
}

} // namespace drasim::cli
