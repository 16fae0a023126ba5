#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    std::string out(1, s[0]);
    for (size_t i = 1; i < s.size(); i++) {
        out += '-';
        out += s[i];
    }
    return out;
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
