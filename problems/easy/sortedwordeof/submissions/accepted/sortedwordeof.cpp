#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    for (size_t i = 1; i < s.size(); i++)
        if (s[i] < s[i - 1]) return "NO";
    return "YES";
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
