#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    std::string out;
    for (char c : s) {
        out += c;
        out += c;
    }
    return out;
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
