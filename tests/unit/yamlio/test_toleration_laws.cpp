// SPDX-License-Identifier: Apache-2.0
// Randomised law of pod tolerations as the API server admits them (ValidateTolerations): a
// toleration is refused exactly when its key is empty and its operator is not Exists, when
// tolerationSeconds is set on an effect other than NoExecute, when Exists carries a value, or when
// its operator or effect is not one of the known ones; every refusal names the toleration's field.
#include <random>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

TEST(TolerationLaws, AdmittedExactlyWhenTheApiServerAdmits)
{
    std::mt19937_64 rng(20261202);
    int refused = 0, admitted = 0;
    for (int round = 0; round < 2000; ++round) {
        const char* keys[] = { "", "dedicated" };
        const char* ops[] = { "", "Equal", "Exists", "In" };
        const char* values[] = { "", "ml" };
        const char* effects[] = { "", "NoSchedule", "PreferNoSchedule", "NoExecute", "Sometimes" };
        const std::string key = keys[rng() % 2], op = ops[rng() % 4], value = values[rng() % 2],
                          effect = effects[rng() % 5];
        const bool seconds = rng() % 3 == 0;
        std::string t = "{";
        auto field = [&](const char* name, const std::string& v) {
            if (!v.empty())
                t += std::string(t.size() > 1 ? ", " : "") + name + ": \"" + v + "\"";
        };
        field("key", key);
        field("operator", op);
        field("value", value);
        field("effect", effect);
        if (seconds)
            t += std::string(t.size() > 1 ? ", " : "") + "tolerationSeconds: 60";
        t += "}";
        const bool valid = (!key.empty() || op == "Exists") && (!seconds || effect == "NoExecute")
            && (op.empty() || op == "Equal" || op == "Exists") && !(op == "Exists" && !value.empty())
            && effect != "Sometimes";
        auto r = yamlio::loadText(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n"
            "  tolerations: ["
                + t + "]\n",
            "t.yaml");
        const bool loaded = !r.diagnostics.hasErrors();
        (loaded ? admitted : refused)++;
        EXPECT_EQ(loaded, valid) << "toleration " << t << ": " << r.diagnostics.formatAll();
        if (!loaded) {
            EXPECT_NE(r.diagnostics.formatAll().find("spec.tolerations[0]."), std::string::npos)
                << r.diagnostics.formatAll();
        }
        if (::testing::Test::HasFailure())
            break;
    }
    EXPECT_GT(admitted, 200);
    EXPECT_GT(refused, 200);
}

} // namespace
