#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int value(char c) {
    switch (c) {
        case 'I': return 1;
        case 'V': return 5;
        case 'X': return 10;
        case 'L': return 50;
        case 'C': return 100;
        case 'D': return 500;
        default: return 1000;
    }
}

std::string solve(const std::string &s) {
    int total = 0;
    for (size_t i = 0; i < s.size(); i++) {
        if (i + 1 < s.size() && value(s[i]) < value(s[i + 1])) total -= value(s[i]);
        else total += value(s[i]);
    }
    return std::to_string(total);
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
