// SPDX-License-Identifier: Apache-2.0
#include "core/cel/cel.h"

#include <array>

#include "core/cel/checker.h"
#include "core/cel/cost.h"
#include "core/cel/interpreter.h"
#include "core/cel/parser.h"
#include "core/cel/program.h"

namespace drasim::cel {

namespace {

/// Kubernetes limits a selector expression to 10 KiB (cel.md §1).
constexpr size_t kMaxExpressionLength = 10240;

/// 1-based line and column (in code points) of a byte offset.
void locate(std::string_view text, size_t offset, int* line, int* column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++*line;
            *column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++*column;
        }
    }
}

void setError(CompileError* error, std::string_view text, std::string message, size_t offset)
{
    if (!error)
        return;
    error->message = std::move(message);
    locate(text, offset, &error->line, &error->column);
}

} // namespace

std::shared_ptr<const Program> compileProgram(
    std::string_view expression, bool stored, CompileError* error, bool fold, ResultRule rule)
{
    if (!stored && expression.size() > kMaxExpressionLength) {
        setError(error, expression,
            "Too long: may not be more than " + std::to_string(kMaxExpressionLength) + " bytes", 0);
        return nullptr;
    }
    ParseError parseError;
    NodePtr root = parseExpression(expression, &parseError);
    if (!root) {
        setError(error, expression, parseError.message, parseError.offset);
        return nullptr;
    }
    CheckResult checked;
    CheckError checkError;
    if (!checkExpression(root, &checked, &checkError, fold, rule)) {
        setError(error, expression, checkError.message, checkError.offset);
        return nullptr;
    }
    // Estimated for stored expressions too: the estimator also sets each node's actual cost.
    double cost = estimateCost(*root);
    if (!stored && cost > kEstimatedCostLimit) {
        setError(error, expression, "too complex, exceeds cost limit", 0);
        return nullptr;
    }
    return std::make_shared<const Program>(std::string(expression), std::move(root), checked.slotCount, cost);
}

Value Program::run(const DeviceView& device, int64_t costLimit, int64_t* costUsed) const
{
    EvalContext ctx;
    ctx.device = &device;
    ctx.limit = costLimit;
    // Iteration variables live in a small stack array; only unusually deep nesting needs the heap.
    constexpr int kInlineSlots = 8;
    Value result;
    if (m_slotCount == 0) {
        result = evaluateNode(ctx, *m_root);
    } else if (m_slotCount <= kInlineSlots) {
        std::array<Value, kInlineSlots> inlineSlots;
        ctx.locals = inlineSlots.data();
        result = evaluateNode(ctx, *m_root);
    } else {
        std::vector<Value> heapSlots(static_cast<size_t>(m_slotCount));
        ctx.locals = heapSlots.data();
        result = evaluateNode(ctx, *m_root);
    }
    if (costUsed)
        *costUsed = ctx.cost;
    if (ctx.cancelled)
        return costLimitError();
    return result;
}

std::shared_ptr<const Selector> Selector::compile(std::string_view expression, CompileError* error)
{
    auto program = compileProgram(expression, false, error);
    if (!program)
        return nullptr;
    return std::make_shared<const Selector>(std::move(program));
}

std::shared_ptr<const Selector> Selector::compileStored(std::string_view expression, CompileError* error)
{
    auto program = compileProgram(expression, true, error);
    if (!program)
        return nullptr;
    return std::make_shared<const Selector>(std::move(program));
}

Selector::Selector(std::shared_ptr<const Program> program)
    : m_program(std::move(program))
{ }

const std::string& Selector::expression() const
{
    return m_program->expression();
}

EvalResult Selector::evaluate(const DeviceView& device) const
{
    EvalResult r;
    Value v = m_program->run(device, kRuntimeCostLimit);
    if (v.kind == Kind::Bool) {
        r.outcome = v.b ? Outcome::True : Outcome::False;
        return r;
    }
    r.outcome = Outcome::Error;
    if (v.isError())
        r.error = v.errorMessage();
    else
        r.error = "CEL result of type " + std::string(typeName(v)) + " could not be converted to bool";
    return r;
}

} // namespace drasim::cel
