#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    int depth = 0;
    for (char c : s) {
        depth += c == '(' ? 1 : -1;
        if (depth < 0) return "NO";
    }
    return depth == 0 ? "YES" : "NO";
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << solve(s) << "\n";
    }
}
