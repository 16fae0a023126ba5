#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    std::string a = s.substr(0, s.find(' ')), b = s.substr(s.find(' ') + 1);
    if (a == b) return "draw";
    if ((a == "rock" && b == "scissors") || (a == "scissors" && b == "paper") ||
        (a == "paper" && b == "rock"))
        return "first";
    return "second";
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
