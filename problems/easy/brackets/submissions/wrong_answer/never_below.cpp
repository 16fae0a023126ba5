#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Checks that the depth never drops below zero but forgets that it must end at zero: (() comes out balanced.
std::string solve(const std::string &s) {
    int depth = 0;
    for (char c : s) {
        depth += c == '(' ? 1 : -1;
        if (depth < 0) return "NO";
    }
    return "YES";
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
