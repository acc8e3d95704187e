// SPDX-License-Identifier: Apache-2.0
#include "core/planner/policy_study.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace drasim::planner {

namespace {

/// One policy's search seen as its share of the whole: policy i of n reports i/n..(i+1)/n, its
/// stage prefixed with the policy's name ("fgd: searching mixes").
class PolicyShareProgress : public ProgressSink
{
public:
    PolicyShareProgress(ProgressSink& whole, size_t index, size_t count, std::string policy)
        : m_whole(whole)
        , m_index(index)
        , m_count(count)
        , m_policy(std::move(policy))
    { }

    void progress(double fraction, std::string_view stage) override
    {
        m_whole.progress(
            (double(m_index) + fraction) / double(m_count), m_policy + ": " + std::string(stage));
    }

private:
    ProgressSink& m_whole;
    size_t m_index, m_count;
    std::string m_policy;
};

const char* nameOf(const PolicyResult& p)
{
    return scheduler::scoringPolicyName(p.policy);
}

/// The recommendation of the load level `load` in `r`, if the level exists and has one.
const MixResult* recommendedAt(const StudyResult& r, double load)
{
    for (const auto& lr : r.loads)
        if (lr.load == load && lr.recommended)
            return &lr.mixes[*lr.recommended];
    return nullptr;
}

/// Every policy's cheapest mix at one load, against the first policy's at today's load, in
/// columns: policy, mix and cost, difference.
std::string comparisonAt(const PolicyStudyResult& all, size_t level)
{
    std::vector<std::array<std::string, 3>> rows;
    size_t nameWidth = 0, mixWidth = 0;
    for (const PolicyComparison& c : policyComparison(all, level)) {
        std::array<std::string, 3> row { scheduler::scoringPolicyName(c.policy), c.mix, "" };
        if (c.recommended) {
            row[1] += "  (" + c.cost + ")";
            if (!c.versus.empty())
                row[2] = "versus " + std::string(nameOf(all.policies.front())) + " today: " + c.versus;
            mixWidth = std::max(mixWidth, row[1].size());
        }
        nameWidth = std::max(nameWidth, row[0].size());
        rows.push_back(std::move(row));
    }
    // Appended piece by piece: GCC 12 sees a false -Wrestrict in `"\n" + std::string`.
    std::string out(1, '\n');
    out += loadLabel(all.policies.front().result.loads[level].load);
    out += ":\n";
    for (auto& [name, mix, versus] : rows) {
        name.resize(nameWidth, ' ');
        if (!versus.empty())
            mix.resize(mixWidth, ' ');
        out += "  ";
        out += name;
        out += "  ";
        out += mix;
        out += versus.empty() ? "" : "  ";
        out += versus;
        out += '\n';
    }
    return out;
}

} // namespace

std::optional<PolicyStudyResult> runPolicyPlans(const Plan& plan, const PlanOptions& options,
    Diagnostics& diags, PlanStats* stats, const PolicyHooks& hooks)
{
    PolicyStudyResult out;
    const size_t count = plan.study.policies.size();
    for (size_t i = 0; i < count; ++i) {
        const scheduler::ScoringPolicy policy = plan.study.policies[i];
        PlanOptions one = options;
        one.scoring = policy;
        std::optional<PolicyShareProgress> share;
        if (options.progress) {
            share.emplace(*options.progress, i, count, scheduler::scoringPolicyName(policy));
            one.progress = &*share;
        }
        if (hooks.before)
            hooks.before(i, one);
        PlanStats done;
        auto result = runPlan(plan, one, diags, &done);
        if (stats) {
            stats->simulationsRun += done.simulationsRun;
            stats->stoppedEarly += done.stoppedEarly;
            stats->cancelled = done.cancelled;
        }
        if (!result)
            return std::nullopt;
        if (hooks.after)
            hooks.after(i, *result);
        out.policies.push_back({ policy, std::move(*result) });
    }
    return out;
}

std::optional<PolicyStudyResult> replayPolicyPlans(
    const Plan& plan, const std::vector<std::vector<Evaluation>>& known, Diagnostics& diags)
{
    PolicyStudyResult out;
    for (size_t i = 0; i < plan.study.policies.size(); ++i) {
        const std::vector<Evaluation> none;
        Diagnostics own;
        auto result = replayPlan(plan, i < known.size() ? known[i] : none, own);
        // The policy joins each message: the same mix is missing, or not, under each policy.
        for (Diagnostic d : own.all()) {
            d.message = "scoring policy " + storedPolicyName(plan, i) + ": " + d.message;
            diags.add(std::move(d));
        }
        if (!result)
            return std::nullopt;
        out.policies.push_back({ plan.study.policies[i], std::move(*result) });
    }
    return out;
}

std::string storedPolicyName(const Plan& plan, size_t index)
{
    return plan.study.policies.empty()
        ? std::string()
        : std::string(scheduler::scoringPolicyName(plan.study.policies[index]));
}

std::vector<PolicyComparison> policyComparison(const PolicyStudyResult& all, size_t level)
{
    std::vector<PolicyComparison> rows;
    if (all.policies.empty())
        return rows;
    const MixResult* baseline = recommendedAt(all.policies.front().result, 1.0);
    for (const auto& p : all.policies) {
        PolicyComparison row;
        row.policy = p.policy;
        if (level >= p.result.loads.size() || !p.result.loads[level].recommended) {
            row.mix = "no mix within maxNodes and the constraints meets every service level";
        } else {
            const LoadResult& lr = p.result.loads[level];
            const MixResult& rec = lr.mixes[*lr.recommended];
            row.recommended = true;
            row.mix = formatMix(rec.mix, p.result.candidates);
            row.cost = formatMoney(rec.footprint.costUsd);
            row.costUsd = rec.footprint.costUsd;
            row.nodes = rec.footprint.nodes;
            if (baseline && (&p != &all.policies.front() || lr.load != 1.0))
                row.versus = versusText(rec, *baseline, p.result);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string formatPolicyText(const PolicyStudyResult& all)
{
    if (all.policies.empty())
        return {};
    const StudyResult& first = all.policies.front().result;
    int64_t evaluations = 0, simulations = 0;
    std::string names;
    for (const auto& p : all.policies) {
        evaluations += p.result.evaluations;
        simulations += p.result.simulations;
        names += (names.empty() ? "" : ", ") + std::string(nameOf(p));
    }
    std::string out = "study " + first.study + " (scenario " + first.scenario
        + "): " + std::to_string(first.candidates.size()) + " candidate shapes, "
        + std::to_string(first.seeds.size()) + " seeds, " + std::to_string(first.loads.size())
        + " load levels, " + std::to_string(all.policies.size()) + " scoring policies; "
        + std::to_string(evaluations) + " mixes evaluated, " + std::to_string(simulations) + " simulations\n";
    out += "scoring policies compared (" + names
        + "): the cheapest mix meeting every service level under each, against what "
        + nameOf(all.policies.front()) + " needs at today's load\n";
    for (size_t level = 0; level < first.loads.size(); ++level)
        out += comparisonAt(all, level);
    for (const auto& p : all.policies)
        out += "\n== scoring policy " + std::string(nameOf(p)) + " ==\n" + formatText(p.result);
    return out;
}

std::string policyFrontierCsv(const PolicyStudyResult& all)
{
    std::string out;
    for (const auto& p : all.policies) {
        const std::string csv = frontierCsv(p.result);
        size_t start = 0;
        for (size_t end = csv.find('\n'); end != std::string::npos;
             start = end + 1, end = csv.find('\n', start)) {
            if (start == 0 && !out.empty())
                continue; // the header once
            out += (start == 0 ? std::string("policy") : std::string(nameOf(p))) + ","
                + csv.substr(start, end - start + 1);
        }
    }
    return out;
}

DataValue toData(const PolicyStudyResult& all)
{
    DataValue list = DataValue::list();
    for (const auto& p : all.policies) {
        DataValue x = DataValue::map();
        x.set("policy", nameOf(p));
        x.set("result", toData(p.result));
        list.push(x);
    }
    DataValue d = DataValue::map();
    d.set("policies", list);
    return d;
}

} // namespace drasim::planner
