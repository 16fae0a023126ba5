#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Keeps the repeats: when a = b every number is the same.
std::string solve(long long n, long long a, long long b) {
    std::vector<long long> marks;
    for (long long i = 0; i < n; i++) marks.push_back((n - 1 - i) * a + i * b);
    std::sort(marks.begin(), marks.end());
    std::string out;
    for (long long m : marks) {
        if (!out.empty()) out += " ";
        out += std::to_string(m);
    }
    return out;
}

int main() {
    long long n, a, b;
    std::cin >> n >> a >> b;
    std::cout << solve(n, a, b) << "\n";
}
