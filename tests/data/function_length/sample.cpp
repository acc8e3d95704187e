// SPDX-License-Identifier: Apache-2.0
// Input of the architecture.function_length self-test (run with --limit 10): braces in
// comments, strings and character literals do not count; a data table after `=` is left out.
#include <map>
#include <string>

namespace sample {
namespace {

int elevenLines(int x) // { not a brace
{
    const char* open = "{{{";
    const char close = '}';
    const char* raw = R"({ "a": [ } )";
    int y = x + 1'000;
    if (y > 0) {
        y += open[0] + close + raw[0];
    }
    return y;
}

int tableAside(int i)
{
    static const int kTable[] = {
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
    };
    return kTable[i];
}

} // namespace

class Widget
{
public:
    explicit Widget(int a)
        : m_a(a)
        , m_b { a + 1 }
    {
        m_a += 1;
    }

    int thirteenLines() const
    {
        auto f = [this](int k) {
            const int doubled = 2 * k;
            return doubled + m_a;
        };
        int s = 0;
        for (int k = 0; k < 3; ++k) {
            s += f(k);
        }
        s += m_b;
        return s;
    }

private:
    int m_a = 0;
    int m_b { 0 };
};

} // namespace sample
