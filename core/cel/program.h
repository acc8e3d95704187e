// SPDX-License-Identifier: Apache-2.0
#pragma once

// A compiled selector: the checked and folded tree plus what evaluation needs (slot count).

#include <string>

#include "core/cel/ast.h"
#include "core/cel/cel.h"
#include "core/cel/checker.h"

namespace drasim::cel {

class Program
{
public:
    Program(std::string expression, NodePtr root, int slotCount, double estimatedCost)
        : m_expression(std::move(expression))
        , m_root(std::move(root))
        , m_slotCount(slotCount)
        , m_estimatedCost(estimatedCost)
    { }

    const std::string& expression() const { return m_expression; }
    const Node& root() const { return *m_root; }
    int slotCount() const { return m_slotCount; }
    double estimatedCost() const { return m_estimatedCost; }

    /// Evaluates to a CEL value (bool for a well-typed selector; errors as values).
    Value run(const DeviceView& device, int64_t costLimit, int64_t* costUsed = nullptr) const;

private:
    std::string m_expression;
    NodePtr m_root;
    int m_slotCount = 0;
    double m_estimatedCost = 0;
};

/// Like Selector::compile but without the cost-limit and result-type checks when `stored` is true
/// (the allocator path compiles stored expressions without cost estimation, cel.md §1).
/// `fold = false` skips constant folding (tests compare folded and unfolded evaluation).
/// `rule`: which result types the checker accepts (a selector's unless said otherwise).
std::shared_ptr<const Program> compileProgram(std::string_view expression, bool stored, CompileError* error,
    bool fold = true, ResultRule rule = ResultRule::Selector);

} // namespace drasim::cel
