// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the planner's tests ask of a Study that must be refused: the located diagnostics.

#include <string>

#include <gtest/gtest.h>

#include "core/common/diagnostic.h"
#include "core/planner/study.h"

namespace planner_test_support {

/// The diagnostics of a Study text that parseStudy refuses (a test failure when it is accepted).
inline std::string studyErrorsOf(const std::string& text)
{
    drasim::Diagnostics diags;
    EXPECT_FALSE(drasim::planner::parseStudy(text, "study.yaml", diags).has_value());
    return diags.formatAll();
}

} // namespace planner_test_support
