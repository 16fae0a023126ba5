#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts only the complete rounds of running and resting: the running of an
// unfinished round is lost.
long long distance(long long run, long long speed, long long rest, long long x) {
    return x / (run + rest) * run * speed;
}

std::string solve(long long a, long long b, long long c, long long d, long long r, long long x) {
    long long first = distance(a, b, r, x), second = distance(c, d, r, x);
    if (first > second) return "first";
    if (second > first) return "second";
    return "draw";
}

int main() {
    long long a, b, c, d, r, x;
    std::cin >> a >> b >> c >> d >> r >> x;
    std::cout << solve(a, b, c, d, r, x) << "\n";
}
