#include <cctype>
#include <iostream>
#include <string>

int main() {
    std::string word, out;
    while (std::cin >> word) out += (char)std::toupper((unsigned char)word[0]);
    std::cout << out << "\n";
}
