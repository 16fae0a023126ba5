#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1);
    std::sort(u.begin(), u.end());
    std::sort(v.begin(), v.end());
    return u == v ? "YES" : "NO";
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << (i > 1 ? " " : "") << solve(s);
    }
    std::cout << "\n";
}
