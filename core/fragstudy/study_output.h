// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fragmentation study as text (a table per measure: one row per arrived %, one column per
// policy, the median across seeds), CSV (one row per policy and arrived %, every statistic) and
// JSON (the same, nested by policy).

#include <string>

#include "core/fragstudy/frag_study.h"

namespace drasim::fragstudy {

struct OutputRange
{
    int fromPercent = 75;
    int toPercent = 130; ///< clipped to the study's maxPercent
    int textStep = 5; ///< text rows every this many %
};

std::string studyText(const StudyResult& result, const std::string& title, const OutputRange& range = {});
std::string studyCsv(const StudyResult& result, const OutputRange& range = {});
std::string studyJson(const StudyResult& result, const std::string& title, const OutputRange& range = {});

} // namespace drasim::fragstudy
