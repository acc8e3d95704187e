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

bool emitStudy(const planner::StudyResult& result, const PlanOutputs& outputs)
{
    auto write = [](const std::string& path, const std::string& text) {
        std::string error;
        if (writeFileAtomically(path, text, &error))
            return true;
        printError("cannot write " + path + ": " + error);
        return false;
    };
    const std::string json = studyJson(result);
    if (!outputs.frontierCsv.empty() && !write(outputs.frontierCsv, planner::frontierCsv(result)))
        return false;
    if (!outputs.frontierJson.empty() && !write(outputs.frontierJson, json))
        return false;
    printStdout(outputs.output == "json" ? json : planner::formatText(result));
    return true;
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
