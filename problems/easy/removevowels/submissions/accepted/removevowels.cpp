#include <iostream>
#include <string>

int main() {
    std::string s, out;
    std::cin >> s;
    for (char c : s)
        if (std::string("aeiou").find(c) == std::string::npos) out += c;
    std::cout << out << "\n";
}
